package dev.ein4j.spark;

import dev.ein4j.tensor.Tensor;
import java.io.Serializable;
import java.lang.reflect.Array;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Where a row keeps its example: an input column (an array of numbers, read as float32 of a declared
 * shape) and a target column (an integer, read as int32 class indices; a float or double, or an array
 * of numbers, read as float32 values), with the checks that give a {@link RowFormatException}
 * naming the row and the columns. Rows are read after {@code select(input, target)}, so the input is
 * field 0 and the target field 1.
 */
final class ExampleColumns implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final List<DataType> INTEGERS = List.of(DataTypes.ByteType, DataTypes.ShortType, DataTypes.IntegerType,
            DataTypes.LongType);
    private static final List<DataType> REALS = List.of(DataTypes.FloatType, DataTypes.DoubleType);

    private final String input;
    private final int[] inputShape;
    private final String target;
    private final int[] targetShape;
    private final boolean classTarget;
    private final boolean arrayTarget;
    private final String columns;

    private ExampleColumns(String input, int[] inputShape, String target, int[] targetShape, boolean classTarget,
            boolean arrayTarget, String columns) {
        this.input = input;
        this.inputShape = inputShape;
        this.target = target;
        this.targetShape = targetShape;
        this.classTarget = classTarget;
        this.arrayTarget = arrayTarget;
        this.columns = columns;
    }

    /**
     * Checks the schema: both columns exist, the input is an array of numbers, the target a number or
     * an array of numbers. A shape not declared is read from the first row: [n] for an array of n
     * numbers, [] for a number.
     *
     * @param schema the data set's schema
     * @param input the input column
     * @param inputShape the shape of one row's input, or null to read it from the first row
     * @param target the target column
     * @param targetShape the shape of one row's target, or null to read it from the first row
     * @param firstRow the first row of {@code select(input, target)}, asked for only when a shape is missing
     * @return the columns
     * @throws RowFormatException naming the column and the schema's columns
     */
    static ExampleColumns resolve(StructType schema, String input, int[] inputShape, String target, int[] targetShape,
            Supplier<Row> firstRow) {
        String columns = describe(schema);
        DataType inputType = field(schema, input, "input", columns).dataType();
        if (!isNumberArray(inputType)) {
            throw new RowFormatException("the input column '" + input + "' is " + inputType.simpleString()
                    + "; it must be an array of numbers (array<float>, array<double>, array<int>, ...)"
                    + (inputShape == null ? "" : " with " + size(inputShape) + " elements per row (shape "
                    + Arrays.toString(inputShape) + ")") + "; columns: " + columns, -1, input);
        }
        DataType targetType = field(schema, target, "target", columns).dataType();
        boolean isArray = isNumberArray(targetType);
        boolean classes = INTEGERS.contains(isArray ? ((ArrayType) targetType).elementType() : targetType);
        if (!isArray && !classes && !REALS.contains(targetType)) {
            throw new RowFormatException("the target column '" + target + "' is " + targetType.simpleString()
                    + "; it must be an integer (class indices), a float or double, or an array of numbers; columns: "
                    + columns, -1, target);
        }
        if (!isArray && targetShape != null && targetShape.length > 0) {
            throw new RowFormatException("the target column '" + target + "' holds one number per row, but the target shape "
                    + Arrays.toString(targetShape) + " was declared; declare none, or use an array column; columns: "
                    + columns, -1, target);
        }
        int[] inputs = inputShape != null ? inputShape.clone() : firstLength(firstRow.get(), 0, input, columns);
        int[] targets = targetShape != null ? targetShape.clone() : isArray ? firstLength(firstRow.get(), 1, target, columns)
                : new int[0];
        return new ExampleColumns(input, inputs, target, targets, classes, isArray, columns);
    }

    private static int[] firstLength(Row first, int field, String column, String columns) {
        if (first == null) {
            throw new RowFormatException("the data set has no rows to read the shape of column '" + column
                    + "' from; columns: " + columns, -1, column);
        }
        if (first.isNullAt(field) || list(first.get(field)).isEmpty()) {
            throw new RowFormatException("row 0: column '" + column + "' is " + (first.isNullAt(field) ? "null" : "empty")
                    + ", so its shape cannot be read from it; declare the shape; columns: " + columns, 0, column);
        }
        return new int[] {list(first.get(field)).size()};
    }

    /** @return the shape of one row's input */
    int[] inputShape() {
        return inputShape.clone();
    }

    /** @return the input column's name */
    String input() {
        return input;
    }

    /** @return the target column's name */
    String target() {
        return target;
    }

    /**
     * @param row a row of {@code select(input, target)}
     * @param index its index in the data set's order
     * @return the example
     * @throws RowFormatException for a null, a wrong element count or an integer outside int32
     */
    Example decode(Row row, long index) {
        float[] inputs = numbers(row, 0, input, inputShape, index);
        if (classTarget) {
            int[] classes = new int[size(targetShape)];
            if (arrayTarget) {
                List<?> elements = elements(row, 1, target, targetShape, index);
                for (int i = 0; i < classes.length; i++) {
                    classes[i] = classIndex(elements.get(i), index, i);
                }
            } else {
                classes[0] = classIndex(present(row, 1, target, index), index, 0);
            }
            return new Example(index, inputs, classes, null, null);
        }
        float[] values = arrayTarget ? numbers(row, 1, target, targetShape, index)
                : new float[] {((Number) present(row, 1, target, index)).floatValue()};
        return new Example(index, inputs, null, values, null);
    }

    /**
     * @param batch examples
     * @return float32 [b, ...input shape]
     */
    Tensor inputs(List<Example> batch) {
        int length = size(inputShape);
        float[] data = new float[batch.size() * length];
        for (int i = 0; i < batch.size(); i++) {
            System.arraycopy(batch.get(i).input(), 0, data, i * length, length);
        }
        return Tensor.of(data, withBatch(batch.size(), inputShape));
    }

    /**
     * @param batch examples
     * @return int32 [b, ...target shape] for class indices, float32 [b, ...target shape] for values
     */
    Tensor targets(List<Example> batch) {
        int length = size(targetShape);
        int[] shape = withBatch(batch.size(), targetShape);
        if (classTarget) {
            int[] data = new int[batch.size() * length];
            for (int i = 0; i < batch.size(); i++) {
                System.arraycopy(batch.get(i).classes(), 0, data, i * length, length);
            }
            return Tensor.of(data, shape);
        }
        float[] data = new float[batch.size() * length];
        for (int i = 0; i < batch.size(); i++) {
            System.arraycopy(batch.get(i).values(), 0, data, i * length, length);
        }
        return Tensor.of(data, shape);
    }

    /**
     * @param row a row of {@code select(input, target)}
     * @param index its index in the data set's order
     * @return the example, or the stand-in of an unreadable row ({@link Example#unreadable})
     */
    Example decodeOrReport(Row row, long index) {
        try {
            return decode(row, index);
        } catch (RowFormatException problem) {
            return Example.unreadable(problem);
        }
    }

    private float[] numbers(Row row, int field, String column, int[] shape, long index) {
        List<?> elements = elements(row, field, column, shape, index);
        float[] numbers = new float[elements.size()];
        for (int i = 0; i < numbers.length; i++) {
            Object element = elements.get(i);
            if (element == null) {
                throw rowError(index, column, "has a null at element " + i);
            }
            numbers[i] = ((Number) element).floatValue();
        }
        return numbers;
    }

    private List<?> elements(Row row, int field, String column, int[] shape, long index) {
        List<?> elements = list(present(row, field, column, index));
        if (elements.size() != size(shape)) {
            throw rowError(index, column, "has " + elements.size() + " numbers, but the shape " + Arrays.toString(shape)
                    + " needs " + size(shape));
        }
        return elements;
    }

    /**
     * An array column's value as a list: Spark hands rows over with a Scala sequence there, or with
     * the Java array that the row was made of (a row encoder passes it through).
     */
    private static List<?> list(Object value) {
        if (value instanceof scala.collection.Seq<?> sequence) {
            return CollectionConverters.asJava(sequence);
        }
        if (value instanceof List<?> list) {
            return list;
        }
        if (value != null && value.getClass().isArray()) {
            return new AbstractList<Object>() {
                @Override
                public Object get(int index) {
                    return Array.get(value, index);
                }

                @Override
                public int size() {
                    return Array.getLength(value);
                }
            };
        }
        throw new IllegalArgumentException("an array column holds a " + (value == null ? "null" : value.getClass().getName()));
    }

    private Object present(Row row, int field, String column, long index) {
        if (row.isNullAt(field)) {
            throw rowError(index, column, "is null");
        }
        return row.get(field);
    }

    private int classIndex(Object element, long index, int position) {
        if (element == null) {
            throw rowError(index, target, "has a null class index at element " + position);
        }
        long value = ((Number) element).longValue();
        if (value != (int) value) {
            throw rowError(index, target, "holds " + value + ", a class index outside int32");
        }
        return (int) value;
    }

    private RowFormatException rowError(long index, String column, String problem) {
        return new RowFormatException("row " + index + ": column '" + column + "' " + problem + " (columns: " + columns
                + "; input '" + input + "' of shape " + Arrays.toString(inputShape) + ", target '" + target + "' of shape "
                + Arrays.toString(targetShape) + ")", index, column);
    }

    private static StructField field(StructType schema, String name, String role, String columns) {
        for (StructField field : schema.fields()) {
            if (field.name().equals(name)) {
                return field;
            }
        }
        throw new RowFormatException("the data set has no " + role + " column '" + name + "'; columns: " + columns, -1, name);
    }

    private static boolean isNumberArray(DataType type) {
        return type instanceof ArrayType array
                && (INTEGERS.contains(array.elementType()) || REALS.contains(array.elementType()));
    }

    private static String describe(StructType schema) {
        return Arrays.stream(schema.fields()).map(f -> f.name() + " " + f.dataType().simpleString())
                .collect(Collectors.joining(", "));
    }

    static int size(int[] shape) {
        long size = 1;
        for (int length : shape) {
            size *= length;
        }
        return Math.toIntExact(size);
    }

    private static int[] withBatch(int batch, int[] shape) {
        int[] full = new int[shape.length + 1];
        full[0] = batch;
        System.arraycopy(shape, 0, full, 1, shape.length);
        return full;
    }
}
