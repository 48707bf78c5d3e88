package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.View;
import dev.ein4j.kernel.ContractSpec;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import java.util.List;

/**
 * A contraction as the generated code reads it: which buffer each operand comes from (an input
 * slot read in place, or the temporary its prologue fills), the spec re-coalesced for those
 * layouts, and the index arithmetic of each merged group ({@code Σ digit·stride}, lengths baked in).
 */
final class ContractLayout {

    /**
     * What a contraction's main launch writes.
     *
     * @param types the buffers' C types
     * @param temporaries the temporaries written, or none for the kernel's output
     */
    record Results(List<CType> types, int[] temporaries) {
    }

    final Kernel kernel;
    final Instruction contract;
    final ContractSpec spec;
    final String leftBuffer;
    final String rightBuffer;
    final CType leftType;
    final CType rightType;
    final long batches;
    final long m;
    final long n;
    final long k;
    private final boolean leftWide;
    private final boolean rightWide;

    /**
     * @param kernel a CONTRACT kernel
     */
    ContractLayout(Kernel kernel) {
        this.kernel = kernel;
        this.contract = kernel.instruction(kernel.reductionIndex());
        ContractSpec original = contract.contractSpec();
        Instruction leftLoad = kernel.leftOperand();
        Instruction rightLoad = kernel.rightOperand();
        this.spec = original.withOperands(
                leftLoad != null ? leftLoad.view() : View.contiguous(original.leftShape()),
                rightLoad != null ? rightLoad.view() : View.contiguous(original.rightShape()));
        this.leftBuffer = leftLoad != null ? "in" + leftLoad.input() : "lhs";
        this.rightBuffer = rightLoad != null ? "in" + rightLoad.input() : "rhs";
        this.leftType = CType.of(kernel.instruction(contract.source(0)).dtype());
        this.rightType = CType.of(kernel.instruction(contract.source(1)).dtype());
        this.batches = spec.batchSize();
        this.m = spec.mSize();
        this.n = spec.nSize();
        this.k = spec.kSize();
        long leftBound = Indexing.saturatingAdd(Math.abs(spec.leftOffset()), Indexing.saturatingAdd(
                Indexing.groupBound(spec.batch(), spec.leftBatchStrides()), Indexing.saturatingAdd(
                        Indexing.groupBound(spec.m(), spec.leftMStrides()), Indexing.groupBound(spec.k(), spec.leftKStrides()))));
        long rightBound = Indexing.saturatingAdd(Math.abs(spec.rightOffset()), Indexing.saturatingAdd(
                Indexing.groupBound(spec.batch(), spec.rightBatchStrides()), Indexing.saturatingAdd(
                        Indexing.groupBound(spec.k(), spec.rightKStrides()), Indexing.groupBound(spec.n(), spec.rightNStrides()))));
        this.leftWide = leftBound > Integer.MAX_VALUE;
        this.rightWide = rightBound > Integer.MAX_VALUE;
    }

    /** @return whether the left operand is evaluated into a temporary first */
    boolean leftHasPrologue() {
        return kernel.leftOperand() == null;
    }

    /** @return whether the right operand is evaluated into a temporary first */
    boolean rightHasPrologue() {
        return kernel.rightOperand() == null;
    }

    /** @return the C type of the left operand's positions */
    String leftIndexType() {
        return leftWide ? "long" : "int";
    }

    /** @return the C type of the right operand's positions */
    String rightIndexType() {
        return rightWide ? "long" : "int";
    }

    String leftBase(String b, Constants c) {
        return sum(c.number(spec.leftOffset(), leftWide), Indexing.groupOffset(b, spec.batch(), spec.leftBatchStrides(), leftWide, c));
    }

    String leftM(String index, Constants c) {
        return Indexing.groupOffset(index, spec.m(), spec.leftMStrides(), leftWide, c);
    }

    String leftK(String index, Constants c) {
        return Indexing.groupOffset(index, spec.k(), spec.leftKStrides(), leftWide, c);
    }

    String rightBase(String b, Constants c) {
        return sum(c.number(spec.rightOffset(), rightWide), Indexing.groupOffset(b, spec.batch(), spec.rightBatchStrides(), rightWide, c));
    }

    String rightK(String index, Constants c) {
        return Indexing.groupOffset(index, spec.k(), spec.rightKStrides(), rightWide, c);
    }

    String rightN(String index, Constants c) {
        return Indexing.groupOffset(index, spec.n(), spec.rightNStrides(), rightWide, c);
    }

    /** The output is compact and smaller than 2^31 elements, so its offsets are ints. */
    String outBatch(String b, Constants c) {
        return Indexing.groupOffset(b, spec.batch(), spec.outBatchStrides(), false, c);
    }

    String outM(String index, Constants c) {
        return Indexing.groupOffset(index, spec.m(), spec.outMStrides(), false, c);
    }

    String outN(String index, Constants c) {
        return Indexing.groupOffset(index, spec.n(), spec.outNStrides(), false, c);
    }

    /**
     * Declares the sizes B, M, N and K as ints at the top of a kernel.
     *
     * @param out where to write
     * @param c baked or parameterised numbers
     */
    void declareSizes(SourceWriter out, Constants c) {
        out.line("const int B = " + c.integer(batches) + ";");
        out.line("const int M = " + c.integer(m) + ";");
        out.line("const int N = " + c.integer(n) + ";");
        out.line("const int K = " + c.integer(k) + ";");
    }

    /** @return whether the left operand's innermost K step is one element (then tiles load along K) */
    boolean leftUnitK() {
        return unitInnermost(spec.leftKStrides());
    }

    /** @return whether the right operand's innermost N step is one element (then tiles load along N) */
    boolean rightUnitN() {
        return unitInnermost(spec.rightNStrides());
    }

    private static boolean unitInnermost(long[] strides) {
        return strides.length > 0 && Math.abs(strides[strides.length - 1]) == 1;
    }

    private static String sum(String a, String b) {
        return b.equals("0") ? a : "(" + a + " + " + b + ")";
    }
}
