package dev.ein4j.cpu.gemm;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API micro-kernel for float on machines with 16 vector registers (x86 without AVX-512): a
 * 3 × 3·L tile of C (L = lanes of the preferred species) in 9 registers while K is summed, with 3
 * vector loads of B and 3 broadcasts of A per step: 15 of the 16, since C2 issues all the broadcasts
 * before the FMAs (the 5 × 4 tile of {@link VectorFloatKernel} needs 29 and would spill). Written out
 * register by register like that one; loaded only reflectively, through {@link VectorKernels}.
 */
final class SmallTileVectorFloatKernel implements FloatKernel {

    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Rows of the tile. */
    static final int MR = 3;
    /** Columns of the tile: 3 vectors. */
    static final int NR = 3 * L;

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
        FloatVector zero = FloatVector.zero(S);
        FloatVector c00 = zero, c01 = zero, c02 = zero;
        FloatVector c10 = zero, c11 = zero, c12 = zero;
        FloatVector c20 = zero, c21 = zero, c22 = zero;
        int a0 = aOff;
        int a1 = aOff + kc;
        int a2 = aOff + 2 * kc;
        for (int p = 0, bi = bOff; p < kc; p++, bi += NR) {
            FloatVector b0 = FloatVector.fromArray(S, bp, bi);
            FloatVector b1 = FloatVector.fromArray(S, bp, bi + L);
            FloatVector b2 = FloatVector.fromArray(S, bp, bi + 2 * L);
            FloatVector x0 = FloatVector.broadcast(S, ap[a0 + p]);
            c00 = x0.fma(b0, c00); c01 = x0.fma(b1, c01); c02 = x0.fma(b2, c02);
            FloatVector x1 = FloatVector.broadcast(S, ap[a1 + p]);
            c10 = x1.fma(b0, c10); c11 = x1.fma(b1, c11); c12 = x1.fma(b2, c12);
            FloatVector x2 = FloatVector.broadcast(S, ap[a2 + p]);
            c20 = x2.fma(b0, c20); c21 = x2.fma(b1, c21); c22 = x2.fma(b2, c22);
        }
        int o;
        if (add) {
            o = rowIdx[rowAt] + col;
            c00.add(FloatVector.fromArray(S, c, o)).intoArray(c, o);
            c01.add(FloatVector.fromArray(S, c, o + L)).intoArray(c, o + L);
            c02.add(FloatVector.fromArray(S, c, o + 2 * L)).intoArray(c, o + 2 * L);
            o = rowIdx[rowAt + 1] + col;
            c10.add(FloatVector.fromArray(S, c, o)).intoArray(c, o);
            c11.add(FloatVector.fromArray(S, c, o + L)).intoArray(c, o + L);
            c12.add(FloatVector.fromArray(S, c, o + 2 * L)).intoArray(c, o + 2 * L);
            o = rowIdx[rowAt + 2] + col;
            c20.add(FloatVector.fromArray(S, c, o)).intoArray(c, o);
            c21.add(FloatVector.fromArray(S, c, o + L)).intoArray(c, o + L);
            c22.add(FloatVector.fromArray(S, c, o + 2 * L)).intoArray(c, o + 2 * L);
        } else {
            o = rowIdx[rowAt] + col;
            c00.intoArray(c, o);
            c01.intoArray(c, o + L);
            c02.intoArray(c, o + 2 * L);
            o = rowIdx[rowAt + 1] + col;
            c10.intoArray(c, o);
            c11.intoArray(c, o + L);
            c12.intoArray(c, o + 2 * L);
            o = rowIdx[rowAt + 2] + col;
            c20.intoArray(c, o);
            c21.intoArray(c, o + L);
            c22.intoArray(c, o + 2 * L);
        }
    }
}
