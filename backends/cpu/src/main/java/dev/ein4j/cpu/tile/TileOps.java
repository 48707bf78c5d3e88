package dev.ein4j.cpu.tile;

/**
 * The loops of the float32 and float64 primitives over one tile (arrays starting at index 0; the
 * operands of the binary arithmetic and comparisons at {@code xFrom} and {@code yFrom}, so that they
 * can be read in place from an input buffer's unit-stride run). Two implementations: {@link ScalarTileOps} in plain Java, and a Vector API one loaded only when
 * {@code jdk.incubator.vector} is present ({@link #get()}). Results are rounded to the array's type,
 * as the kernel semantics require; NaN propagates through MAX.
 */
public interface TileOps {

    /** @return "vector" or "scalar" */
    String kind();

    void add(float[] x, int xFrom, float[] y, int yFrom, float[] out, int n);

    void mul(float[] x, int xFrom, float[] y, int yFrom, float[] out, int n);

    void max(float[] x, int xFrom, float[] y, int yFrom, float[] out, int n);

    void lessThan(float[] x, int xFrom, float[] y, int yFrom, boolean[] out, int n);

    void equal(float[] x, int xFrom, float[] y, int yFrom, boolean[] out, int n);

    /**
     * out = x·y + z, rounded after the product and after the sum (not a fused multiply-add: the
     * values of a MUL then an ADD); y is the number {@code b} where its array is null, z the number
     * {@code c} where its array is null (see {@link MultiplyAddFusion}).
     */
    void multiplyAdd(float[] x, int xFrom, float[] y, int yFrom, float b, float[] z, int zFrom, float c, float[] out, int n);

    /** out = x ≤ y (false where either is NaN): a kernel's (x &lt; y) or (x = y) in one pass. */
    void lessOrEqual(float[] x, int xFrom, float[] y, int yFrom, boolean[] out, int n);

    void where(boolean[] condition, float[] x, float[] y, float[] out, int n);

    /** out[to + j] = source[from + j] != 0 for j below n (a bool buffer's bytes into a tile). */
    void toBooleans(byte[] source, int from, boolean[] out, int to, int n);

    /** target[at + j] = tile[from + j] ? 1 : 0 for j below n (a bool tile into a buffer's bytes). */
    void toBytes(boolean[] tile, int from, byte[] target, int at, int n);

    /** out = 1 where x, else 0 (a bool to float32 cast). */
    void fromBool(boolean[] x, float[] out, int n);

    /** EXP, LOG, SQRT, RECIPROCAL or SIN. */
    void unary(dev.ein4j.ir.Op op, float[] x, float[] out, int n);

    /** @return Σ x[0..n) accumulated in double */
    double sum(float[] x, int offset, int n);

    /** @return max(initial, x[0..n)), NaN if any is NaN */
    float max(float[] x, int offset, int n, float initial);

    void add(double[] x, int xFrom, double[] y, int yFrom, double[] out, int n);

    void mul(double[] x, int xFrom, double[] y, int yFrom, double[] out, int n);

    void max(double[] x, int xFrom, double[] y, int yFrom, double[] out, int n);

    void lessThan(double[] x, int xFrom, double[] y, int yFrom, boolean[] out, int n);

    void equal(double[] x, int xFrom, double[] y, int yFrom, boolean[] out, int n);

    void lessOrEqual(double[] x, int xFrom, double[] y, int yFrom, boolean[] out, int n);

    /** {@link #multiplyAdd(float[], int, float[], int, float, float[], int, float, float[], int)} in float64. */
    void multiplyAdd(double[] x, int xFrom, double[] y, int yFrom, double b, double[] z, int zFrom, double c, double[] out, int n);

    void where(boolean[] condition, double[] x, double[] y, double[] out, int n);

    void unary(dev.ein4j.ir.Op op, double[] x, double[] out, int n);

    double sum(double[] x, int offset, int n);

    double max(double[] x, int offset, int n, double initial);

    /** @return the Vector API implementation when its module is loaded (and {@code ein4j.cpu.vector} is not false), else the scalar one */
    static TileOps get() {
        return Loader.OPS;
    }

    /** Loads the implementation once; the vector class is only touched when its module is there. */
    final class Loader {
        static final TileOps OPS = load();

        private Loader() {
        }

        private static TileOps load() {
            if (!vectorAvailable()) {
                return new ScalarTileOps();
            }
            try {
                return (TileOps) Class.forName("dev.ein4j.cpu.tile.VectorTileOps").getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException | LinkageError unavailable) {
                return new ScalarTileOps();
            }
        }

        /** @return whether the Vector API may be used: its module is loaded and not switched off */
        public static boolean vectorAvailable() {
            return !"false".equals(System.getProperty("ein4j.cpu.vector"))
                    && ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
        }
    }
}
