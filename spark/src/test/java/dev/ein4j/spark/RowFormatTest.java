package dev.ein4j.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.nn.Functional;
import dev.ein4j.nn.optim.Sgd;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Columns of the wrong type and rows of the wrong shape fail before training, naming the row and the columns. */
class RowFormatTest {

    private static SparkTrainer.Builder trainer() {
        return SparkTrainer.builder().model(TestModels::perceptron).optimizer(parameters -> new Sgd(parameters, 0.1))
                .loss(Functional::crossEntropy).globalBatch(4).workers(2).onEpoch(report -> { });
    }

    private static Dataset<Row> rows(DataType features, DataType label, Object[]... values) {
        StructType schema = new StructType().add("features", features, true).add("label", label, true);
        List<Row> rows = new ArrayList<>();
        for (Object[] row : values) {
            rows.add(RowFactory.create(row));
        }
        return LocalSpark.session().createDataFrame(rows, schema);
    }

    private static float[] input(int length) {
        float[] input = new float[length];
        Arrays.fill(input, 0.5f);
        return input;
    }

    private static final DataType FLOATS = DataTypes.createArrayType(DataTypes.FloatType, true);

    @Test
    void columnsOfTheWrongTypeOrMissingAreNamedWithTheSchema() {
        assertThatThrownBy(() -> trainer().fit(rows(DataTypes.StringType, DataTypes.IntegerType, new Object[] {"x", 1})))
                .isInstanceOf(RowFormatException.class)
                .hasMessage("the input column 'features' is string; it must be an array of numbers (array<float>, "
                        + "array<double>, array<int>, ...); columns: features string, label int")
                .satisfies(e -> assertThat(((RowFormatException) e).row()).isEqualTo(-1));
        assertThatThrownBy(() -> trainer().fit(rows(FLOATS, DataTypes.StringType, new Object[] {input(64), "shirt"})))
                .isInstanceOf(RowFormatException.class)
                .hasMessageStartingWith("the target column 'label' is string; it must be an integer (class indices)")
                .hasMessageEndingWith("columns: features array<float>, label string");
        assertThatThrownBy(() -> trainer().inputColumn("pixels", 64).fit(rows(FLOATS, DataTypes.IntegerType,
                new Object[] {input(64), 1})))
                .isInstanceOf(RowFormatException.class)
                .hasMessage("the data set has no input column 'pixels'; columns: features array<float>, label int");
        assertThatThrownBy(() -> trainer().targetColumn("label", 3).fit(rows(FLOATS, DataTypes.IntegerType,
                new Object[] {input(64), 1})))
                .isInstanceOf(RowFormatException.class)
                .hasMessageStartingWith("the target column 'label' holds one number per row, but the target shape [3]");
    }

    @Test
    void aRowOfTheWrongShapeIsNamedWithItsColumns() {
        Object[][] values = new Object[8][];
        for (int i = 0; i < values.length; i++) {
            values[i] = new Object[] {input(64), i % 3};
        }
        values[5] = new Object[] {input(63), 1};
        assertThatThrownBy(() -> trainer().fit(rows(FLOATS, DataTypes.IntegerType, values)))
                .isInstanceOf(RowFormatException.class)
                .hasMessage("row 5: column 'features' has 63 numbers, but the shape [64] needs 64 (columns: features "
                        + "array<float>, label int; input 'features' of shape [64], target 'label' of shape [])")
                .satisfies(e -> {
                    assertThat(((RowFormatException) e).row()).isEqualTo(5);
                    assertThat(((RowFormatException) e).column()).isEqualTo("features");
                });
        values[5] = new Object[] {input(64), 1};
        assertThatThrownBy(() -> trainer().inputColumn("features", 8, 9).fit(rows(FLOATS, DataTypes.IntegerType, values)))
                .isInstanceOf(RowFormatException.class)
                .hasMessageStartingWith("row ").hasMessageContaining(": column 'features' has 64 numbers, but the shape [8, 9] needs 72");
    }

    @Test
    void nullsAndClassIndicesOutsideInt32AreNamed() {
        Object[][] values = {{input(64), 1}, {input(64), null}, {input(64), 2}, {input(64), 3}};
        assertThatThrownBy(() -> trainer().fit(rows(FLOATS, DataTypes.IntegerType, values)))
                .isInstanceOf(RowFormatException.class).hasMessageStartingWith("row 1: column 'label' is null (columns: ");
        float[] holed = input(64);
        Object[][] withNullElement = {{input(64), 1}, {input(64), 1}, {nullAt(3), 2}, {input(64), 3}};
        assertThatThrownBy(() -> trainer().fit(rows(FLOATS, DataTypes.IntegerType, withNullElement)))
                .isInstanceOf(RowFormatException.class).hasMessageStartingWith("row 2: column 'features' has a null at element 3");
        Object[][] huge = {{holed, 1L}, {input(64), 1L << 40}, {input(64), 2L}, {input(64), 3L}};
        assertThatThrownBy(() -> trainer().fit(rows(FLOATS, DataTypes.LongType, huge)))
                .isInstanceOf(RowFormatException.class)
                .hasMessageStartingWith("row 1: column 'label' holds 1099511627776, a class index outside int32");
    }

    @Test
    void doublesIntegersAndLongLabelsAreReadAsFloat32AndInt32() {
        DataType doubles = DataTypes.createArrayType(DataTypes.DoubleType, false);
        Object[][] values = new Object[8][];
        for (int i = 0; i < values.length; i++) {
            double[] input = new double[64];
            Arrays.fill(input, i / 8.0);
            values[i] = new Object[] {input, (long) (i % 10)};
        }
        Map<String, dev.ein4j.tensor.Tensor> trained = trainer().fit(rows(doubles, DataTypes.LongType, values));
        assertThat(trained).containsKeys("0.weight", "2.bias");
    }

    @Test
    void rowsHoldingJavaArraysAreReadToo() {
        // a row encoder passes the row's own float[] on, where rows from Spark's storage hold Scala sequences
        StructType schema = new StructType().add("features", FLOATS, false).add("label", DataTypes.IntegerType, false);
        Dataset<Row> rows = LocalSpark.session().range(0, 8, 1, 2).map((MapFunction<Long, Row>) i -> {
            float[] input = new float[64];
            Arrays.fill(input, i / 8f);
            return RowFactory.create(input, (int) (i % 10));
        }, Encoders.row(schema));
        assertThat(trainer().fit(rows)).containsKeys("0.weight", "2.bias");
    }

    @Test
    void aSourceThatFailsIsATrainingErrorNotASparkException() {
        StructType schema = new StructType().add("features", FLOATS, false).add("label", DataTypes.IntegerType, false);
        Dataset<Row> rows = LocalSpark.session().range(0, 8, 1, 2).map((MapFunction<Long, Row>) i -> {
            if (i == 5) {
                throw new IllegalStateException("the source broke at row 5");
            }
            return RowFactory.create(input(64), 1);
        }, Encoders.row(schema));
        assertThatThrownBy(() -> trainer().fit(rows)).isInstanceOf(SparkTrainingException.class)
                .hasMessageStartingWith("reading the examples failed: ")
                .hasMessageContaining("IllegalStateException: the source broke at row 5")
                .satisfies(e -> assertThat(((SparkTrainingException) e).epoch()).isZero());
    }

    private static Float[] nullAt(int position) {
        Float[] input = new Float[64];
        Arrays.fill(input, 0.5f);
        input[position] = null;
        return input;
    }
}
