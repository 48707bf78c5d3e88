package dev.ein4j.spark;

import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * One local Spark session (2 task slots, loopback only, no UI) for every test class of the module:
 * Spark takes seconds to start, so the test JVM starts it once and stops it when it exits.
 */
final class LocalSpark {

    private static SparkSession session;

    private LocalSpark() {
    }

    /** @return the shared session */
    static synchronized SparkSession session() {
        if (session == null) {
            session = SparkSession.builder().master("local[2]").appName("ein4j-spark tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.ui.showConsoleProgress", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.sql.shuffle.partitions", "2")
                    .getOrCreate();
            Runtime.getRuntime().addShutdownHook(new Thread(session::stop));
        }
        return session;
    }

    /** The schema of {@link #teacherRows}: features array&lt;float&gt;, label int. */
    static final StructType SCHEMA = new StructType()
            .add("features", DataTypes.createArrayType(DataTypes.FloatType, false), false)
            .add("label", DataTypes.IntegerType, false);

    /**
     * A classification set a small network can learn: gaussian inputs, labelled by the argmax of a
     * fixed random linear teacher.
     *
     * @param rows how many
     * @param features the input length
     * @param classes the label range
     * @param seed the random stream
     * @return the inputs [rows, features] and labels
     */
    static Teacher teacher(int rows, int features, int classes, long seed) {
        float[] inputs = Tensor.randn(new Generator(seed), rows, features).toFloatArray();
        float[] weights = Tensor.randn(new Generator(seed + 1), features, classes).toFloatArray();
        int[] labels = new int[rows];
        for (int row = 0; row < rows; row++) {
            double best = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < classes; k++) {
                double score = 0;
                for (int f = 0; f < features; f++) {
                    score += inputs[row * features + f] * weights[f * classes + k];
                }
                if (score > best) {
                    best = score;
                    labels[row] = k;
                }
            }
        }
        return new Teacher(inputs, labels, features);
    }

    /**
     * @param inputs row-major [rows, features]
     * @param labels one per row
     * @param features the input length
     */
    record Teacher(float[] inputs, int[] labels, int features) {

        /** @return the rows, in order, as a data set of {@link #SCHEMA} */
        Dataset<Row> rows() {
            List<Row> rows = new ArrayList<>(labels.length);
            for (int row = 0; row < labels.length; row++) {
                rows.add(RowFactory.create(input(row), labels[row]));
            }
            return session().createDataFrame(rows, SCHEMA);
        }

        /**
         * @param row a row
         * @return its input
         */
        float[] input(int row) {
            float[] input = new float[features];
            System.arraycopy(inputs, row * features, input, 0, features);
            return input;
        }
    }
}
