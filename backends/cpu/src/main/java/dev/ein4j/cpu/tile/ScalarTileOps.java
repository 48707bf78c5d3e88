package dev.ein4j.cpu.tile;

import dev.ein4j.ir.Op;

/** {@link TileOps} in plain Java: simple same-index loops that C2 can auto-vectorize where it likes. */
final class ScalarTileOps implements TileOps {

    @Override
    public String kind() {
        return "scalar";
    }

    @Override
    public void add(float[] x, int xFrom, float[] y, int yFrom, float[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = x[xFrom + i] + y[yFrom + i];
        }
    }

    @Override
    public void mul(float[] x, int xFrom, float[] y, int yFrom, float[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = x[xFrom + i] * y[yFrom + i];
        }
    }

    @Override
    public void max(float[] x, int xFrom, float[] y, int yFrom, float[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = Math.max(x[xFrom + i], y[yFrom + i]); // Math.max propagates NaN
        }
    }

    @Override
    public void lessThan(float[] x, int xFrom, float[] y, int yFrom, boolean[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = x[xFrom + i] < y[yFrom + i];
        }
    }

    @Override
    public void lessOrEqual(float[] x, int xFrom, float[] y, int yFrom, boolean[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = x[xFrom + i] <= y[yFrom + i];
        }
    }

    @Override
    public void equal(float[] x, int xFrom, float[] y, int yFrom, boolean[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = x[xFrom + i] == y[yFrom + i];
        }
    }

    @Override
    public void toBooleans(byte[] source, int from, boolean[] out, int to, int n) {
        for (int j = 0; j < n; j++) {
            out[to + j] = source[from + j] != 0;
        }
    }

    @Override
    public void toBytes(boolean[] tile, int from, byte[] target, int at, int n) {
        for (int j = 0; j < n; j++) {
            target[at + j] = tile[from + j] ? (byte) 1 : (byte) 0;
        }
    }

    @Override
    public void fromBool(boolean[] x, float[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = x[i] ? 1f : 0f;
        }
    }

    @Override
    public void where(boolean[] condition, float[] x, float[] y, float[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = condition[i] ? x[i] : y[i];
        }
    }

    @Override
    public void unary(Op op, float[] x, float[] out, int n) {
        unary(op, x, out, 0, n);
    }

    /** The unary loop over [from, to): also the tail of the vector implementation. */
    void unary(Op op, float[] x, float[] out, int from, int n) {
        switch (op) {
            case EXP -> {
                for (int i = from; i < n; i++) {
                    out[i] = (float) Math.exp(x[i]);
                }
            }
            case LOG -> {
                for (int i = from; i < n; i++) {
                    out[i] = (float) Math.log(x[i]);
                }
            }
            case SQRT -> {
                for (int i = from; i < n; i++) {
                    out[i] = (float) Math.sqrt(x[i]);
                }
            }
            case RECIPROCAL -> {
                for (int i = from; i < n; i++) {
                    out[i] = 1f / x[i];
                }
            }
            case SIN -> {
                for (int i = from; i < n; i++) {
                    out[i] = (float) Math.sin(x[i]);
                }
            }
            default -> throw new IllegalArgumentException(op + " is not a unary float primitive");
        }
    }

    @Override
    public double sum(float[] x, int offset, int n) {
        double a = 0;
        double b = 0;
        double c = 0;
        double d = 0;
        int i = 0;
        for (; i + 3 < n; i += 4) { // four partial sums: fewer dependencies, a little more accuracy
            a += x[offset + i];
            b += x[offset + i + 1];
            c += x[offset + i + 2];
            d += x[offset + i + 3];
        }
        for (; i < n; i++) {
            a += x[offset + i];
        }
        return (a + b) + (c + d);
    }

    @Override
    public float max(float[] x, int offset, int n, float initial) {
        float m = initial;
        for (int i = 0; i < n; i++) {
            m = Math.max(m, x[offset + i]);
        }
        return m;
    }

    @Override
    public void add(double[] x, int xFrom, double[] y, int yFrom, double[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = x[xFrom + i] + y[yFrom + i];
        }
    }

    @Override
    public void mul(double[] x, int xFrom, double[] y, int yFrom, double[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = x[xFrom + i] * y[yFrom + i];
        }
    }

    @Override
    public void max(double[] x, int xFrom, double[] y, int yFrom, double[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = Math.max(x[xFrom + i], y[yFrom + i]);
        }
    }

    @Override
    public void lessThan(double[] x, int xFrom, double[] y, int yFrom, boolean[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = x[xFrom + i] < y[yFrom + i];
        }
    }

    @Override
    public void lessOrEqual(double[] x, int xFrom, double[] y, int yFrom, boolean[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = x[xFrom + i] <= y[yFrom + i];
        }
    }

    @Override
    public void equal(double[] x, int xFrom, double[] y, int yFrom, boolean[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = x[xFrom + i] == y[yFrom + i];
        }
    }

    @Override
    public void where(boolean[] condition, double[] x, double[] y, double[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = condition[i] ? x[i] : y[i];
        }
    }

    @Override
    public void unary(Op op, double[] x, double[] out, int n) {
        switch (op) {
            case EXP -> {
                for (int i = 0; i < n; i++) {
                    out[i] = Math.exp(x[i]);
                }
            }
            case LOG -> {
                for (int i = 0; i < n; i++) {
                    out[i] = Math.log(x[i]);
                }
            }
            case SQRT -> {
                for (int i = 0; i < n; i++) {
                    out[i] = Math.sqrt(x[i]);
                }
            }
            case RECIPROCAL -> {
                for (int i = 0; i < n; i++) {
                    out[i] = 1.0 / x[i];
                }
            }
            case SIN -> {
                for (int i = 0; i < n; i++) {
                    out[i] = Math.sin(x[i]);
                }
            }
            default -> throw new IllegalArgumentException(op + " is not a unary float primitive");
        }
    }

    @Override
    public double sum(double[] x, int offset, int n) {
        double a = 0;
        double b = 0;
        double c = 0;
        double d = 0;
        int i = 0;
        for (; i + 3 < n; i += 4) {
            a += x[offset + i];
            b += x[offset + i + 1];
            c += x[offset + i + 2];
            d += x[offset + i + 3];
        }
        for (; i < n; i++) {
            a += x[offset + i];
        }
        return (a + b) + (c + d);
    }

    @Override
    public double max(double[] x, int offset, int n, double initial) {
        double m = initial;
        for (int i = 0; i < n; i++) {
            m = Math.max(m, x[offset + i]);
        }
        return m;
    }

    @Override
    public void multiplyAdd(float[] x, int xFrom, float[] y, int yFrom, float b, float[] z, int zFrom, float c, float[] out, int n) {
        for (int i = 0; i < n; i++) {
            float product = x[xFrom + i] * (y == null ? b : y[yFrom + i]);
            out[i] = product + (z == null ? c : z[zFrom + i]);
        }
    }

    @Override
    public void multiplyAdd(double[] x, int xFrom, double[] y, int yFrom, double b, double[] z, int zFrom, double c, double[] out, int n) {
        for (int i = 0; i < n; i++) {
            double product = x[xFrom + i] * (y == null ? b : y[yFrom + i]);
            out[i] = product + (z == null ? c : z[zFrom + i]);
        }
    }
}
