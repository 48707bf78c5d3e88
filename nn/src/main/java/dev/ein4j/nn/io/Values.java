package dev.ein4j.nn.io;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The elements of one tensor on the heap, in the Java array of its type ({@code float[]},
 * {@code double[]}, {@code int[]} or {@code boolean[]}): what readers decode into and writers encode
 * from.
 */
final class Values {

    private final DType dtype;
    private final Object array;

    private Values(DType dtype, Object array) {
        this.dtype = dtype;
        this.array = array;
    }

    static Values allocate(DType dtype, int length) {
        return new Values(dtype, switch (dtype) {
            case FLOAT32 -> new float[length];
            case FLOAT64 -> new double[length];
            case INT32 -> new int[length];
            case BOOL -> new boolean[length];
        });
    }

    /**
     * @param tensor a tensor, computed now
     * @return its elements in row-major order
     */
    static Values of(Tensor tensor) {
        DType dtype = tensor.dtype();
        return new Values(dtype, switch (dtype) {
            case FLOAT32 -> tensor.toFloatArray();
            case FLOAT64 -> tensor.toDoubleArray();
            case INT32 -> tensor.toIntArray();
            case BOOL -> tensor.toBooleanArray();
        });
    }

    DType dtype() {
        return dtype;
    }

    int length() {
        return java.lang.reflect.Array.getLength(array);
    }

    /** @return the float32 elements, the array itself */
    float[] floats() {
        return (float[]) array;
    }

    /**
     * @param needed elements the array must hold
     * @param max elements it will ever need to hold
     * @return this, or a copy of at least {@code needed} and at most {@code max} elements (doubling)
     */
    Values grownTo(int needed, int max) {
        int length = length();
        if (needed <= length) {
            return this;
        }
        int grown = (int) Math.min(max, Math.max(needed, 2L * length));
        return new Values(dtype, switch (dtype) {
            case FLOAT32 -> Arrays.copyOf((float[]) array, grown);
            case FLOAT64 -> Arrays.copyOf((double[]) array, grown);
            case INT32 -> Arrays.copyOf((int[]) array, grown);
            case BOOL -> Arrays.copyOf((boolean[]) array, grown);
        });
    }

    /**
     * Decodes {@code n} elements of the buffer into elements {@code at ...} of the array.
     *
     * @param source the file or stream, for messages
     * @param buffer holds at least n elements, in the byte order of the source
     * @param type their type, one whose target is this array's type
     * @param at the index of the first
     * @param n how many
     */
    void decode(String source, ByteBuffer buffer, ElementType type, int at, int n) {
        switch (dtype) {
            case FLOAT32 -> decodeFloats(buffer, type, (float[]) array, at, n);
            case FLOAT64 -> {
                double[] out = (double[]) array;
                for (int i = at; i < at + n; i++) {
                    out[i] = buffer.getDouble();
                }
            }
            case INT32 -> decodeInts(source, buffer, type, (int[]) array, at, n);
            case BOOL -> {
                boolean[] out = (boolean[]) array;
                for (int i = at; i < at + n; i++) {
                    byte b = buffer.get();
                    if (b != 0 && b != 1) {
                        throw Limits.fail(source, "bool element " + i + " is the byte " + (b & 0xff) + ", not 0 or 1");
                    }
                    out[i] = b == 1;
                }
            }
        }
    }

    private static void decodeFloats(ByteBuffer buffer, ElementType type, float[] out, int at, int n) {
        for (int i = at; i < at + n; i++) {
            out[i] = switch (type) {
                case F32 -> buffer.getFloat();
                case F16 -> halfToFloat(buffer.getShort());
                case BF16 -> Float.intBitsToFloat((buffer.getShort() & 0xffff) << 16);
                case U8 -> buffer.get() & 0xff; // IDX images, scaled by the caller
                default -> throw new IllegalStateException(type + " is not read as float32");
            };
        }
    }

    private static void decodeInts(String source, ByteBuffer buffer, ElementType type, int[] out, int at, int n) {
        for (int i = at; i < at + n; i++) {
            long value = switch (type) {
                case U8 -> buffer.get() & 0xff;
                case I8 -> buffer.get();
                case I16 -> buffer.getShort();
                case U16 -> buffer.getShort() & 0xffff;
                case I32 -> buffer.getInt();
                case U32 -> buffer.getInt() & 0xffffffffL;
                case I64 -> buffer.getLong();
                case U64 -> {
                    long bits = buffer.getLong();
                    if (bits < 0) {
                        throw Limits.fail(source, "element " + i + " (" + Long.toUnsignedString(bits)
                                + ") does not fit in int32; 64-bit integers are read only when every value fits");
                    }
                    yield bits;
                }
                default -> throw new IllegalStateException(type + " is not read as int32");
            };
            if (value != (int) value) {
                throw Limits.fail(source, "element " + i + " (" + value + ") does not fit in int32; "
                        + type.code() + " integers are read only when every value fits");
            }
            out[i] = (int) value;
        }
    }

    /**
     * @param bits an IEEE 754 binary16 value
     * @return the same value as a float (exact: every half is a float)
     */
    static float halfToFloat(short bits) {
        int sign = (bits & 0x8000) << 16;
        int exponent = (bits >>> 10) & 0x1f;
        int mantissa = bits & 0x3ff;
        if (exponent == 0x1f) {
            return Float.intBitsToFloat(sign | 0x7f800000 | (mantissa << 13)); // infinities and NaNs
        }
        if (exponent == 0) {
            float magnitude = mantissa * 0x1p-24f; // zeros and subnormals, exact
            return sign != 0 ? -magnitude : magnitude;
        }
        return Float.intBitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
    }

    /**
     * @param shape the shape the elements were stored in column-major (Fortran) order
     * @return the same elements in row-major order
     */
    Values fortranToC(int[] shape) {
        int n = length();
        if (shape.length < 2 || n == 0) {
            return this;
        }
        Values out = allocate(dtype, n);
        FortranWalk walk = new FortranWalk(shape);
        switch (dtype) {
            case FLOAT32 -> {
                float[] from = (float[]) array;
                float[] to = (float[]) out.array;
                for (int i = 0; i < n; i++) {
                    to[i] = from[walk.next()];
                }
            }
            case FLOAT64 -> {
                double[] from = (double[]) array;
                double[] to = (double[]) out.array;
                for (int i = 0; i < n; i++) {
                    to[i] = from[walk.next()];
                }
            }
            case INT32 -> {
                int[] from = (int[]) array;
                int[] to = (int[]) out.array;
                for (int i = 0; i < n; i++) {
                    to[i] = from[walk.next()];
                }
            }
            case BOOL -> {
                boolean[] from = (boolean[]) array;
                boolean[] to = (boolean[]) out.array;
                for (int i = 0; i < n; i++) {
                    to[i] = from[walk.next()];
                }
            }
        }
        return out;
    }

    /** Visits the elements of a column-major array in row-major order, giving their positions. */
    private static final class FortranWalk {
        private final int[] shape;
        private final long[] strides;
        private final int[] index;
        private long position;
        private boolean started;

        FortranWalk(int[] shape) {
            this.shape = shape;
            this.strides = new long[shape.length];
            this.index = new int[shape.length];
            long stride = 1;
            for (int k = 0; k < shape.length; k++) {
                strides[k] = stride;
                stride *= shape[k];
            }
        }

        int next() {
            if (started) {
                for (int k = shape.length - 1; k >= 0; k--) { // odometer, last axis fastest
                    if (++index[k] < shape[k]) {
                        position += strides[k];
                        break;
                    }
                    index[k] = 0;
                    position -= (shape[k] - 1L) * strides[k];
                }
            }
            started = true;
            return (int) position;
        }
    }

    /**
     * @param shape the shape, holding exactly {@link #length()} elements
     * @return a tensor of the elements
     */
    Tensor toTensor(int[] shape) {
        return switch (dtype) {
            case FLOAT32 -> Tensor.of((float[]) array, shape);
            case FLOAT64 -> Tensor.of((double[]) array, shape);
            case INT32 -> Tensor.of((int[]) array, shape);
            case BOOL -> Tensor.of((boolean[]) array, shape);
        };
    }

    /**
     * Writes the elements little-endian: float32 and int32 in 4 bytes, float64 in 8, bool as one
     * byte 0 or 1.
     *
     * @param out the destination, not closed
     * @throws IOException if writing fails
     */
    void writeTo(OutputStream out) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(DataReader.CHUNK).order(ByteOrder.LITTLE_ENDIAN);
        int n = length();
        int width = ElementType.of(dtype).bytes();
        for (int i = 0; i < n; i++) {
            if (buffer.remaining() < width) {
                out.write(buffer.array(), 0, buffer.position());
                buffer.clear();
            }
            switch (dtype) {
                case FLOAT32 -> buffer.putFloat(((float[]) array)[i]);
                case FLOAT64 -> buffer.putDouble(((double[]) array)[i]);
                case INT32 -> buffer.putInt(((int[]) array)[i]);
                case BOOL -> buffer.put(((boolean[]) array)[i] ? (byte) 1 : (byte) 0);
            }
        }
        out.write(buffer.array(), 0, buffer.position());
    }
}
