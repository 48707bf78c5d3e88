package dev.ein4j.cpu.gemm;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API micro-kernel for double: a 5 × 4·L tile of C (L = lanes of the preferred
 * species) held in 20 vector registers while K is summed, with 4 vector loads of B and 5
 * broadcasts of A per step: 29 of the 32 AVX-512 registers, since C2 issues all the
 * broadcasts before the FMAs (with more, e.g. 8 × 3, JDK 25 spills accumulators inside the loop).
 * Written out register by register because C2 keeps locals, not arrays of vectors, in registers;
 * the K loop is not unrolled by hand, which on JDK 17 can push the method past C2's limits. Used where
 * {@link VectorRegisters} finds 32 registers ({@link SmallTileVectorDoubleKernel} elsewhere); loaded
 * only reflectively, through {@link VectorKernels}.
 */
final class VectorDoubleKernel implements DoubleKernel {

    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    /** Rows of the tile. */
    static final int MR = 5;
    /** Columns of the tile: 4 vectors. */
    static final int NR = 4 * L;

    @Override
    public int mr() {
        return MR;
    }

    @Override
    public int nr() {
        return NR;
    }

    @Override
    public void tile(int kc, double[] ap, int aOff, double[] bp, int bOff, double[] c, int[] rowIdx, int rowAt,
            int col, boolean add) {
        DoubleVector zero = DoubleVector.zero(S);
        DoubleVector c00 = zero, c01 = zero, c02 = zero, c03 = zero;
        DoubleVector c10 = zero, c11 = zero, c12 = zero, c13 = zero;
        DoubleVector c20 = zero, c21 = zero, c22 = zero, c23 = zero;
        DoubleVector c30 = zero, c31 = zero, c32 = zero, c33 = zero;
        DoubleVector c40 = zero, c41 = zero, c42 = zero, c43 = zero;
        int a0 = aOff;
        int a1 = aOff + kc;
        int a2 = aOff + 2 * kc;
        int a3 = aOff + 3 * kc;
        int a4 = aOff + 4 * kc;
        for (int p = 0, bi = bOff; p < kc; p++, bi += NR) {
            DoubleVector b0 = DoubleVector.fromArray(S, bp, bi);
            DoubleVector b1 = DoubleVector.fromArray(S, bp, bi + L);
            DoubleVector b2 = DoubleVector.fromArray(S, bp, bi + 2 * L);
            DoubleVector b3 = DoubleVector.fromArray(S, bp, bi + 3 * L);
            DoubleVector x0 = DoubleVector.broadcast(S, ap[a0 + p]);
            c00 = x0.fma(b0, c00); c01 = x0.fma(b1, c01); c02 = x0.fma(b2, c02); c03 = x0.fma(b3, c03);
            DoubleVector x1 = DoubleVector.broadcast(S, ap[a1 + p]);
            c10 = x1.fma(b0, c10); c11 = x1.fma(b1, c11); c12 = x1.fma(b2, c12); c13 = x1.fma(b3, c13);
            DoubleVector x2 = DoubleVector.broadcast(S, ap[a2 + p]);
            c20 = x2.fma(b0, c20); c21 = x2.fma(b1, c21); c22 = x2.fma(b2, c22); c23 = x2.fma(b3, c23);
            DoubleVector x3 = DoubleVector.broadcast(S, ap[a3 + p]);
            c30 = x3.fma(b0, c30); c31 = x3.fma(b1, c31); c32 = x3.fma(b2, c32); c33 = x3.fma(b3, c33);
            DoubleVector x4 = DoubleVector.broadcast(S, ap[a4 + p]);
            c40 = x4.fma(b0, c40); c41 = x4.fma(b1, c41); c42 = x4.fma(b2, c42); c43 = x4.fma(b3, c43);
        }
        int o;
        if (add) {
            o = rowIdx[rowAt] + col;
            c00.add(DoubleVector.fromArray(S, c, o)).intoArray(c, o);
            c01.add(DoubleVector.fromArray(S, c, o + L)).intoArray(c, o + L);
            c02.add(DoubleVector.fromArray(S, c, o + 2 * L)).intoArray(c, o + 2 * L);
            c03.add(DoubleVector.fromArray(S, c, o + 3 * L)).intoArray(c, o + 3 * L);
            o = rowIdx[rowAt + 1] + col;
            c10.add(DoubleVector.fromArray(S, c, o)).intoArray(c, o);
            c11.add(DoubleVector.fromArray(S, c, o + L)).intoArray(c, o + L);
            c12.add(DoubleVector.fromArray(S, c, o + 2 * L)).intoArray(c, o + 2 * L);
            c13.add(DoubleVector.fromArray(S, c, o + 3 * L)).intoArray(c, o + 3 * L);
            o = rowIdx[rowAt + 2] + col;
            c20.add(DoubleVector.fromArray(S, c, o)).intoArray(c, o);
            c21.add(DoubleVector.fromArray(S, c, o + L)).intoArray(c, o + L);
            c22.add(DoubleVector.fromArray(S, c, o + 2 * L)).intoArray(c, o + 2 * L);
            c23.add(DoubleVector.fromArray(S, c, o + 3 * L)).intoArray(c, o + 3 * L);
            o = rowIdx[rowAt + 3] + col;
            c30.add(DoubleVector.fromArray(S, c, o)).intoArray(c, o);
            c31.add(DoubleVector.fromArray(S, c, o + L)).intoArray(c, o + L);
            c32.add(DoubleVector.fromArray(S, c, o + 2 * L)).intoArray(c, o + 2 * L);
            c33.add(DoubleVector.fromArray(S, c, o + 3 * L)).intoArray(c, o + 3 * L);
            o = rowIdx[rowAt + 4] + col;
            c40.add(DoubleVector.fromArray(S, c, o)).intoArray(c, o);
            c41.add(DoubleVector.fromArray(S, c, o + L)).intoArray(c, o + L);
            c42.add(DoubleVector.fromArray(S, c, o + 2 * L)).intoArray(c, o + 2 * L);
            c43.add(DoubleVector.fromArray(S, c, o + 3 * L)).intoArray(c, o + 3 * L);
        } else {
            o = rowIdx[rowAt] + col;
            c00.intoArray(c, o);
            c01.intoArray(c, o + L);
            c02.intoArray(c, o + 2 * L);
            c03.intoArray(c, o + 3 * L);
            o = rowIdx[rowAt + 1] + col;
            c10.intoArray(c, o);
            c11.intoArray(c, o + L);
            c12.intoArray(c, o + 2 * L);
            c13.intoArray(c, o + 3 * L);
            o = rowIdx[rowAt + 2] + col;
            c20.intoArray(c, o);
            c21.intoArray(c, o + L);
            c22.intoArray(c, o + 2 * L);
            c23.intoArray(c, o + 3 * L);
            o = rowIdx[rowAt + 3] + col;
            c30.intoArray(c, o);
            c31.intoArray(c, o + L);
            c32.intoArray(c, o + 2 * L);
            c33.intoArray(c, o + 3 * L);
            o = rowIdx[rowAt + 4] + col;
            c40.intoArray(c, o);
            c41.intoArray(c, o + L);
            c42.intoArray(c, o + 2 * L);
            c43.intoArray(c, o + 3 * L);
        }
    }
}
