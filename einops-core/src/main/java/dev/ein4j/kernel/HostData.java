package dev.ein4j.kernel;

import dev.ein4j.ir.DType;
import java.util.Arrays;

/**
 * Elements on the Java heap in their own type: how data moves between the user, the core and a
 * backend. A float32 tensor travels as a {@code float[]} (4 bytes an element), a bool tensor as a
 * {@code byte[]} of 0 and 1. The {@code double} accessors are for code that handles every type
 * alike; values written through {@link #set} are rounded to the type.
 */
public abstract sealed class HostData permits HostData.Float32, HostData.Float64, HostData.Int32, HostData.Bool {

    private HostData() {
    }

    /**
     * @param dtype the element type
     * @param length the number of elements
     * @return zeros of that type
     */
    public static HostData allocate(DType dtype, int length) {
        return switch (dtype) {
            case FLOAT32 -> new Float32(new float[length]);
            case FLOAT64 -> new Float64(new double[length]);
            case INT32 -> new Int32(new int[length]);
            case BOOL -> new Bool(new byte[length]);
        };
    }

    /**
     * @param dtype the element type
     * @param values the values, rounded to the type
     * @return a new host array holding them
     */
    public static HostData fromDoubles(DType dtype, double[] values) {
        HostData data = allocate(dtype, values.length);
        for (int i = 0; i < values.length; i++) {
            data.set(i, values[i]);
        }
        return data;
    }

    /** @return the element type */
    public abstract DType dtype();

    /** @return the number of elements */
    public abstract int length();

    /**
     * @param index an element
     * @return its value, exact as a double
     */
    public abstract double get(int index);

    /**
     * @param index an element
     * @param value the new value, rounded to the type
     */
    public abstract void set(int index, double value);

    /** @return every element as a double */
    public double[] toDoubles() {
        double[] values = new double[length()];
        for (int i = 0; i < values.length; i++) {
            values[i] = get(i);
        }
        return values;
    }

    /**
     * Copies a range of elements from another host array of the same type.
     *
     * @param source where to read
     * @param sourceIndex first element read
     * @param targetIndex first element written here
     * @param count how many
     */
    public abstract void copyFrom(HostData source, int sourceIndex, int targetIndex, int count);

    /** float32 elements. */
    public static final class Float32 extends HostData {
        private final float[] values;

        /** @param values the array, used as it is (not copied) */
        public Float32(float[] values) {
            this.values = values;
        }

        /** @return the array itself */
        public float[] values() {
            return values;
        }

        @Override
        public DType dtype() {
            return DType.FLOAT32;
        }

        @Override
        public int length() {
            return values.length;
        }

        @Override
        public double get(int index) {
            return values[index];
        }

        @Override
        public void set(int index, double value) {
            values[index] = (float) value;
        }

        @Override
        public void copyFrom(HostData source, int sourceIndex, int targetIndex, int count) {
            System.arraycopy(((Float32) source).values, sourceIndex, values, targetIndex, count);
        }
    }

    /** float64 elements. */
    public static final class Float64 extends HostData {
        private final double[] values;

        /** @param values the array, used as it is (not copied) */
        public Float64(double[] values) {
            this.values = values;
        }

        /** @return the array itself */
        public double[] values() {
            return values;
        }

        @Override
        public DType dtype() {
            return DType.FLOAT64;
        }

        @Override
        public int length() {
            return values.length;
        }

        @Override
        public double get(int index) {
            return values[index];
        }

        @Override
        public void set(int index, double value) {
            values[index] = value;
        }

        @Override
        public double[] toDoubles() {
            return values.clone();
        }

        @Override
        public void copyFrom(HostData source, int sourceIndex, int targetIndex, int count) {
            System.arraycopy(((Float64) source).values, sourceIndex, values, targetIndex, count);
        }
    }

    /** int32 elements. */
    public static final class Int32 extends HostData {
        private final int[] values;

        /** @param values the array, used as it is (not copied) */
        public Int32(int[] values) {
            this.values = values;
        }

        /** @return the array itself */
        public int[] values() {
            return values;
        }

        @Override
        public DType dtype() {
            return DType.INT32;
        }

        @Override
        public int length() {
            return values.length;
        }

        @Override
        public double get(int index) {
            return values[index];
        }

        @Override
        public void set(int index, double value) {
            values[index] = (int) DType.INT32.round(value);
        }

        @Override
        public void copyFrom(HostData source, int sourceIndex, int targetIndex, int count) {
            System.arraycopy(((Int32) source).values, sourceIndex, values, targetIndex, count);
        }
    }

    /** bool elements, one byte each: 0 or 1. */
    public static final class Bool extends HostData {
        private final byte[] values;

        /** @param values the array of 0 and 1, used as it is (not copied) */
        public Bool(byte[] values) {
            this.values = values;
        }

        /** @return the array itself */
        public byte[] values() {
            return values;
        }

        @Override
        public DType dtype() {
            return DType.BOOL;
        }

        @Override
        public int length() {
            return values.length;
        }

        @Override
        public double get(int index) {
            return values[index];
        }

        @Override
        public void set(int index, double value) {
            values[index] = value != 0.0 ? (byte) 1 : (byte) 0;
        }

        @Override
        public void copyFrom(HostData source, int sourceIndex, int targetIndex, int count) {
            System.arraycopy(((Bool) source).values, sourceIndex, values, targetIndex, count);
        }
    }

    @Override
    public String toString() {
        int shown = Math.min(length(), 8);
        double[] head = new double[shown];
        for (int i = 0; i < shown; i++) {
            head[i] = get(i);
        }
        return dtype().numpyName() + "[" + length() + "] " + Arrays.toString(head) + (shown < length() ? "..." : "");
    }
}
