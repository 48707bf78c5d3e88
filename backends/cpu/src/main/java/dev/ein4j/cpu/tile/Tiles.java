package dev.ein4j.cpu.tile;

import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;

/** Typed tile arrays: float32 as float[], float64 as double[], int32 as int[], bool as boolean[]. */
final class Tiles {

    private Tiles() {
    }

    static Object allocate(DType dtype, int length) {
        return switch (dtype) {
            case FLOAT32 -> new float[length];
            case FLOAT64 -> new double[length];
            case INT32 -> new int[length];
            case BOOL -> new boolean[length];
        };
    }

    /** Fills [from, to) of a tile with one value, rounded to the tile's type. */
    static void fill(Object tile, int from, int to, double value) {
        if (from >= to) {
            return;
        }
        if (tile instanceof float[] f) {
            java.util.Arrays.fill(f, from, to, (float) value);
        } else if (tile instanceof double[] d) {
            java.util.Arrays.fill(d, from, to, value);
        } else if (tile instanceof int[] n) {
            java.util.Arrays.fill(n, from, to, (int) DType.INT32.round(value));
        } else {
            java.util.Arrays.fill((boolean[]) tile, from, to, value != 0.0);
        }
    }

    /** Element j of a tile as a double. */
    static double get(Object tile, int j) {
        if (tile instanceof float[] f) {
            return f[j];
        }
        if (tile instanceof double[] d) {
            return d[j];
        }
        if (tile instanceof int[] n) {
            return n[j];
        }
        return ((boolean[]) tile)[j] ? 1.0 : 0.0;
    }

    /** Sets element j of a tile, rounding to its type. */
    static void set(Object tile, int j, double value) {
        if (tile instanceof float[] f) {
            f[j] = (float) value;
        } else if (tile instanceof double[] d) {
            d[j] = value;
        } else if (tile instanceof int[] n) {
            n[j] = (int) DType.INT32.round(value);
        } else {
            ((boolean[]) tile)[j] = value != 0.0;
        }
    }

    /**
     * Reads [from, to) of a tile from a buffer: element j at position + (j − from)·stride.
     * Contiguous runs are one array copy, broadcasts one fill.
     */
    static void gather(HostData source, Object tile, int from, int to, long position, long stride) {
        if (from >= to) {
            return;
        }
        int at = (int) position;
        int step = (int) stride;
        int count = to - from;
        if (source instanceof HostData.Float32 f) {
            float[] a = f.values();
            float[] t = (float[]) tile;
            if (step == 1) {
                System.arraycopy(a, at, t, from, count);
            } else if (step == 0) {
                java.util.Arrays.fill(t, from, to, a[at]);
            } else {
                for (int j = from; j < to; j++, at += step) {
                    t[j] = a[at];
                }
            }
        } else if (source instanceof HostData.Float64 d) {
            double[] a = d.values();
            double[] t = (double[]) tile;
            if (step == 1) {
                System.arraycopy(a, at, t, from, count);
            } else if (step == 0) {
                java.util.Arrays.fill(t, from, to, a[at]);
            } else {
                for (int j = from; j < to; j++, at += step) {
                    t[j] = a[at];
                }
            }
        } else if (source instanceof HostData.Int32 n) {
            int[] a = n.values();
            int[] t = (int[]) tile;
            if (step == 1) {
                System.arraycopy(a, at, t, from, count);
            } else {
                for (int j = from; j < to; j++, at += step) {
                    t[j] = a[at];
                }
            }
        } else {
            byte[] a = ((HostData.Bool) source).values();
            boolean[] t = (boolean[]) tile;
            if (step == 1) {
                TileOps.get().toBooleans(a, at, t, from, count);
                return;
            }
            for (int j = from; j < to; j++, at += step) {
                t[j] = a[at] != 0;
            }
        }
    }

    /** Writes a tile's first {@code count} elements to a buffer from index {@code at}, both of one type. */
    static void store(Object tile, HostData target, int at, int count) {
        store(tile, 0, target, at, count);
    }

    /** Writes tile[offset .. offset + count) to a buffer from index {@code at}, both of one type. */
    static void store(Object tile, int offset, HostData target, int at, int count) {
        if (target instanceof HostData.Float32 f) {
            System.arraycopy((float[]) tile, offset, f.values(), at, count);
        } else if (target instanceof HostData.Float64 d) {
            System.arraycopy((double[]) tile, offset, d.values(), at, count);
        } else if (target instanceof HostData.Int32 n) {
            System.arraycopy((int[]) tile, offset, n.values(), at, count);
        } else {
            TileOps.get().toBytes((boolean[]) tile, offset, ((HostData.Bool) target).values(), at, count);
        }
    }

    /**
     * Writes tile[offset .. offset + count) to a buffer at position, position + stride, ...
     * (stride 1: one array copy).
     */
    static void scatter(Object tile, int offset, HostData target, long position, long stride, int count) {
        if (stride == 1) {
            store(tile, offset, target, (int) position, count);
            return;
        }
        int at = (int) position;
        int step = (int) stride;
        int end = offset + count;
        if (target instanceof HostData.Float32 f) {
            float[] a = f.values();
            float[] t = (float[]) tile;
            for (int j = offset; j < end; j++, at += step) {
                a[at] = t[j];
            }
        } else if (target instanceof HostData.Float64 d) {
            double[] a = d.values();
            double[] t = (double[]) tile;
            for (int j = offset; j < end; j++, at += step) {
                a[at] = t[j];
            }
        } else if (target instanceof HostData.Int32 n) {
            int[] a = n.values();
            int[] t = (int[]) tile;
            for (int j = offset; j < end; j++, at += step) {
                a[at] = t[j];
            }
        } else {
            byte[] a = ((HostData.Bool) target).values();
            boolean[] t = (boolean[]) tile;
            for (int j = offset; j < end; j++, at += step) {
                a[at] = t[j] ? (byte) 1 : (byte) 0;
            }
        }
    }

    /**
     * Reads whole patterned rows into a tile: row r (of {@code length} elements) from positions
     * bases[first + r] + pattern[start + j], for j below length (see {@link RowPatterns}).
     */
    static void gatherPattern(HostData source, Object tile, int rows, int length, long[] bases, int first, int start,
                              int[] pattern) {
        for (int r = 0, to = 0; r < rows; r++, to += length) {
            gatherPattern(source, tile, to, length, bases[first + r], start, pattern);
        }
    }

    /** tile[to + j] = source[base + pattern[start + j]] for j below length. */
    static void gatherPattern(HostData source, Object tile, int to, int length, long base, int start, int[] pattern) {
        int at = (int) base;
        if (source instanceof HostData.Float32 f) {
            float[] a = f.values();
            float[] t = (float[]) tile;
            for (int j = 0; j < length; j++) {
                t[to + j] = a[at + pattern[start + j]];
            }
        } else if (source instanceof HostData.Float64 d) {
            double[] a = d.values();
            double[] t = (double[]) tile;
            for (int j = 0; j < length; j++) {
                t[to + j] = a[at + pattern[start + j]];
            }
        } else if (source instanceof HostData.Int32 n) {
            int[] a = n.values();
            int[] t = (int[]) tile;
            for (int j = 0; j < length; j++) {
                t[to + j] = a[at + pattern[start + j]];
            }
        } else {
            byte[] a = ((HostData.Bool) source).values();
            boolean[] t = (boolean[]) tile;
            for (int j = 0; j < length; j++) {
                t[to + j] = a[at + pattern[start + j]] != 0;
            }
        }
    }

    /** Rows shorter than this are read element by element rather than copied. */
    static final int SHORT_ROW = 8;

    /**
     * Reads whole rows into a tile: row r (of {@code length} elements) from positions
     * bases[first + r] + (start + j)·stride, for j below length.
     */
    static void gatherRows(HostData source, Object tile, int rows, int length, long[] bases, int first, int start,
                           long stride) {
        if (rows == 1 || !(source instanceof HostData.Float32)) {
            for (int r = 0; r < rows; r++) {
                gather(source, tile, r * length, (r + 1) * length, bases[first + r] + start * stride, stride);
            }
            return;
        }
        float[] a = ((HostData.Float32) source).values();
        float[] t = (float[]) tile;
        int step = (int) stride;
        if (length < SHORT_ROW) {
            // rows of a few elements (a pooling window's 2 × 2): an element loop, since an array copy or
            // fill per row cost 3-4x more per element (JDK 25, 2-element rows)
            for (int r = 0, to = 0; r < rows; r++) {
                int at = (int) (bases[first + r] + (long) start * stride);
                for (int j = 0; j < length; j++, at += step) {
                    t[to++] = a[at];
                }
            }
            return;
        }
        for (int r = 0, to = 0; r < rows; r++) {
            int at = (int) (bases[first + r] + (long) start * stride);
            if (step == 1) {
                System.arraycopy(a, at, t, to, length);
                to += length;
            } else if (step == 0) {
                java.util.Arrays.fill(t, to, to + length, a[at]);
                to += length;
            } else {
                for (int end = to + length; to < end; to++, at += step) {
                    t[to] = a[at];
                }
            }
        }
    }
}
