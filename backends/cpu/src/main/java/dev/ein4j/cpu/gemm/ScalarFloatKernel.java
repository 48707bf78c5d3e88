package dev.ein4j.cpu.gemm;

/**
 * The plain-Java micro-kernel for float: a 4 × 4 tile of C in 16 local accumulators, so
 * that C2 keeps them in registers and each loaded element of A and B is used several times.
 */
final class ScalarFloatKernel implements FloatKernel {

    /** Rows of the tile. */
    static final int MR = 4;
    /** Columns of the tile. */
    static final int NR = 4;

    @Override
    public int mr() {
        return MR;
    }

    @Override
    public int nr() {
        return NR;
    }

    @Override
    public void tile(int kc, float[] ap, int aOff, float[] bp, int bOff, float[] c, int[] rowIdx, int rowAt,
            int col, boolean add) {
        float c00 = 0f, c01 = 0f, c02 = 0f, c03 = 0f;
        float c10 = 0f, c11 = 0f, c12 = 0f, c13 = 0f;
        float c20 = 0f, c21 = 0f, c22 = 0f, c23 = 0f;
        float c30 = 0f, c31 = 0f, c32 = 0f, c33 = 0f;
        int a0 = aOff;
        int a1 = aOff + kc;
        int a2 = aOff + 2 * kc;
        int a3 = aOff + 3 * kc;
        for (int p = 0, bi = bOff; p < kc; p++, bi += NR) {
            float b0 = bp[bi];
            float b1 = bp[bi + 1];
            float b2 = bp[bi + 2];
            float b3 = bp[bi + 3];
            float x0 = ap[a0 + p];
            c00 += x0 * b0; c01 += x0 * b1; c02 += x0 * b2; c03 += x0 * b3;
            float x1 = ap[a1 + p];
            c10 += x1 * b0; c11 += x1 * b1; c12 += x1 * b2; c13 += x1 * b3;
            float x2 = ap[a2 + p];
            c20 += x2 * b0; c21 += x2 * b1; c22 += x2 * b2; c23 += x2 * b3;
            float x3 = ap[a3 + p];
            c30 += x3 * b0; c31 += x3 * b1; c32 += x3 * b2; c33 += x3 * b3;
        }
        int o;
        if (add) {
            o = rowIdx[rowAt] + col;
            c[o] += c00; c[o + 1] += c01; c[o + 2] += c02; c[o + 3] += c03;
            o = rowIdx[rowAt + 1] + col;
            c[o] += c10; c[o + 1] += c11; c[o + 2] += c12; c[o + 3] += c13;
            o = rowIdx[rowAt + 2] + col;
            c[o] += c20; c[o + 1] += c21; c[o + 2] += c22; c[o + 3] += c23;
            o = rowIdx[rowAt + 3] + col;
            c[o] += c30; c[o + 1] += c31; c[o + 2] += c32; c[o + 3] += c33;
        } else {
            o = rowIdx[rowAt] + col;
            c[o] = c00; c[o + 1] = c01; c[o + 2] = c02; c[o + 3] = c03;
            o = rowIdx[rowAt + 1] + col;
            c[o] = c10; c[o + 1] = c11; c[o + 2] = c12; c[o + 3] = c13;
            o = rowIdx[rowAt + 2] + col;
            c[o] = c20; c[o + 1] = c21; c[o + 2] = c22; c[o + 3] = c23;
            o = rowIdx[rowAt + 3] + col;
            c[o] = c30; c[o + 1] = c31; c[o + 2] = c32; c[o + 3] = c33;
        }
    }
}
