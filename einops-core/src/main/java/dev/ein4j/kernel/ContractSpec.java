package dev.ein4j.kernel;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A contraction in GEMM terms, built by the core so that no backend has to rediscover it:
 * {@code out[b, m, n] = Σ_k left[b, m, k] · right[b, k, n]}.
 *
 * <p>The IR's CONTRACT multiplies two operands expanded to one full shape F and sums some axes.
 * Here each operand is kept in its own un-expanded shape (F with length 1 where it was broadcast)
 * and every axis of F gets a role: <b>batch</b> (in both operands, kept), <b>M</b> (only in the
 * left operand), <b>N</b> (only in the right), <b>K</b> (summed), <b>replicated</b> (kept, but in
 * neither operand: every index holds the same product, computed once and copied), or <b>unit</b>
 * (length 1).
 * Adjacent axes of one role are merged ("coalesced") when every operand that has them lays them
 * out as one row-major block, so {@code "b i d, d o -> b i o"} is one GEMM with M = b·i.
 *
 * <p>The output is compact in {@link #outputShape()}: F with the summed axes of length 1. Strides
 * and offsets are in elements of the operand buffers as the backend reads them: the load's own view
 * when the operand is a plain load, or a compact array of the operand's shape when the kernel gives
 * it a prologue to evaluate first ({@link Kernel#leftOperand()}).
 */
public final class ContractSpec {

    /** What an axis of the full shape is to the GEMM. */
    public enum Role {
        /** In both operands and the output. */
        BATCH,
        /** In the left operand and the output. */
        M,
        /** In the right operand and the output. */
        N,
        /** Summed. */
        K,
        /**
         * In the output only: both operands are broadcast along it, so every index holds the same
         * values. A backend computes the product at index 0 and copies it ({@link #replicate}); the
         * gradient of a convolution's weight under a broadcast seed has such an axis.
         */
        REPLICATED,
        /** Length 1: plays no part. */
        UNIT
    }

    private final int[] fullShape;
    private final int[] leftShape;
    private final int[] rightShape;
    private final Role[] roles;
    private final DType accumulation;
    private final int[] batch;
    private final int[] m;
    private final int[] n;
    private final int[] k;
    private final int[] replicated;
    private final long[] outReplicated;
    private final long leftOffset;
    private final long rightOffset;
    private final long[] leftBatch;
    private final long[] leftM;
    private final long[] leftK;
    private final long[] rightBatch;
    private final long[] rightK;
    private final long[] rightN;
    private final long[] outBatch;
    private final long[] outM;
    private final long[] outN;

    private ContractSpec(int[] fullShape, int[] leftShape, int[] rightShape, Role[] roles, DType accumulation,
                         View left, View right) {
        this.fullShape = fullShape;
        this.leftShape = leftShape;
        this.rightShape = rightShape;
        this.roles = roles;
        this.accumulation = accumulation;
        long[] outStrides = Shapes.contiguousStrides(outputShape());
        long[] ls = operandStrides(left, leftShape);
        long[] rs = operandStrides(right, rightShape);
        Group b = Group.of(fullShape, roles, Role.BATCH, ls, rs, outStrides);
        Group mm = Group.of(fullShape, roles, Role.M, ls, null, outStrides);
        Group nn = Group.of(fullShape, roles, Role.N, null, rs, outStrides);
        Group kk = Group.of(fullShape, roles, Role.K, ls, rs, null);
        Group rr = Group.of(fullShape, roles, Role.REPLICATED, null, null, outStrides);
        this.replicated = rr.lengths;
        this.outReplicated = rr.out;
        this.batch = b.lengths;
        this.m = mm.lengths;
        this.n = nn.lengths;
        this.k = kk.lengths;
        this.leftOffset = left.offset();
        this.rightOffset = right.offset();
        this.leftBatch = b.left;
        this.leftM = mm.left;
        this.leftK = kk.left;
        this.rightBatch = b.right;
        this.rightK = kk.right;
        this.rightN = nn.right;
        this.outBatch = b.out;
        this.outM = mm.out;
        this.outN = nn.out;
    }

    /**
     * Classifies and coalesces a contraction.
     *
     * @param fullShape F, the shape both operands are expanded to
     * @param leftShape the left operand's shape: F with length 1 where it is broadcast
     * @param rightShape the right operand's shape
     * @param summed the summed axes of F, ascending
     * @param left how the left operand is read (a view of leftShape, without mask)
     * @param right how the right operand is read
     * @param accumulation the type of the sums (the result's type)
     * @return the spec
     */
    public static ContractSpec of(int[] fullShape, int[] leftShape, int[] rightShape, int[] summed, View left,
                                  View right, DType accumulation) {
        if (left.hasMask() || right.hasMask()) {
            throw new IllegalArgumentException("contraction operands are read without masks");
        }
        Role[] roles = new Role[fullShape.length];
        for (int a = 0; a < fullShape.length; a++) {
            boolean isSummed = Arrays.binarySearch(summed, a) >= 0;
            if (fullShape[a] == 1) {
                roles[a] = Role.UNIT;
            } else if (isSummed) {
                roles[a] = Role.K;
            } else if (leftShape[a] != 1 && rightShape[a] != 1) { // 0 is a length too: an empty batch
                roles[a] = Role.BATCH;
            } else if (leftShape[a] != 1) {
                roles[a] = Role.M;
            } else if (rightShape[a] != 1) {
                roles[a] = Role.N;
            } else {
                roles[a] = Role.REPLICATED;
            }
        }
        return new ContractSpec(fullShape.clone(), leftShape.clone(), rightShape.clone(), roles, accumulation, left, right);
    }

    /**
     * The same contraction with operands read through other views (compact arrays of the operand
     * shapes, say, once a prologue has been evaluated).
     *
     * @param left the left operand's new view
     * @param right the right operand's new view
     * @return the spec re-coalesced for those views
     */
    public ContractSpec withOperands(View left, View right) {
        return new ContractSpec(fullShape, leftShape, rightShape, roles, accumulation, left, right);
    }

    private static long[] operandStrides(View view, int[] shape) {
        long[] strides = new long[shape.length];
        for (int a = 0; a < shape.length; a++) {
            strides[a] = shape[a] == 1 ? 0 : view.stride(a);
        }
        return strides;
    }

    /** One role's axes, merged where every operand having them lays them out as one block. */
    private record Group(int[] lengths, long[] left, long[] right, long[] out) {
        static Group of(int[] full, Role[] roles, Role role, long[] left, long[] right, long[] out) {
            List<long[]> dims = new ArrayList<>(); // {length, left stride, right stride, out stride}
            for (int a = 0; a < full.length; a++) {
                if (roles[a] != role) {
                    continue;
                }
                long[] dim = {full[a], left == null ? 0 : left[a], right == null ? 0 : right[a], out == null ? 0 : out[a]};
                if (!dims.isEmpty()) {
                    long[] outer = dims.get(dims.size() - 1);
                    boolean merges = outer[1] == dim[1] * dim[0] && outer[2] == dim[2] * dim[0] && outer[3] == dim[3] * dim[0];
                    if (merges) {
                        dim[0] *= outer[0];
                        dims.set(dims.size() - 1, dim);
                        continue;
                    }
                }
                dims.add(dim);
            }
            int count = dims.size();
            int[] lengths = new int[count];
            long[] l = new long[count];
            long[] r = new long[count];
            long[] o = new long[count];
            for (int i = 0; i < count; i++) {
                long[] dim = dims.get(i);
                if (dim[0] > Integer.MAX_VALUE) {
                    // keep separate dimensions: a merged length must fit an int
                    return unmerged(full, roles, role, left, right, out);
                }
                lengths[i] = (int) dim[0];
                l[i] = dim[1];
                r[i] = dim[2];
                o[i] = dim[3];
            }
            return new Group(lengths, l, r, o);
        }

        private static Group unmerged(int[] full, Role[] roles, Role role, long[] left, long[] right, long[] out) {
            int[] axes = java.util.stream.IntStream.range(0, full.length).filter(a -> roles[a] == role).toArray();
            return new Group(Arrays.stream(axes).map(a -> full[a]).toArray(),
                    Arrays.stream(axes).mapToLong(a -> left == null ? 0 : left[a]).toArray(),
                    Arrays.stream(axes).mapToLong(a -> right == null ? 0 : right[a]).toArray(),
                    Arrays.stream(axes).mapToLong(a -> out == null ? 0 : out[a]).toArray());
        }
    }

    /** @return F, the full shape of the IR's CONTRACT operands */
    public int[] fullShape() {
        return fullShape.clone();
    }

    /** @return the left operand's shape (F with 1 where broadcast) */
    public int[] leftShape() {
        return leftShape.clone();
    }

    /** @return the right operand's shape */
    public int[] rightShape() {
        return rightShape.clone();
    }

    /** @return the result's shape: F with the summed axes of length 1 */
    public int[] outputShape() {
        int[] shape = fullShape.clone();
        for (int a = 0; a < shape.length; a++) {
            if (roles[a] == Role.K) {
                shape[a] = 1;
            }
        }
        return shape;
    }

    /** @return each axis' role, one per axis of F */
    public Role[] roles() {
        return roles.clone();
    }

    /** @return the type sums are accumulated in and the result has */
    public DType accumulation() {
        return accumulation;
    }

    /** @return merged batch lengths */
    public int[] batch() {
        return batch.clone();
    }

    /** @return merged M lengths */
    public int[] m() {
        return m.clone();
    }

    /** @return merged N lengths */
    public int[] n() {
        return n.clone();
    }

    /** @return merged K lengths */
    public int[] k() {
        return k.clone();
    }

    /** @return merged replicated lengths (empty when every output index is computed) */
    public int[] replicated() {
        return replicated.clone();
    }

    /** @return the output's strides along the merged replicated dimensions */
    public long[] outReplicatedStrides() {
        return outReplicated.clone();
    }

    /** @return whether some output axis is in neither operand ({@link Role#REPLICATED}) */
    public boolean hasReplicas() {
        return replicated.length > 0;
    }

    /**
     * Copies the product computed at replica index 0 to every other replica: for each output
     * position p of the batch, M and N offsets and each replica offset r, {@code out[p + r] = out[p]}.
     *
     * @param copy copies one element of the output from a flat index to another
     */
    public void replicate(ElementCopy copy) {
        if (!hasReplicas()) {
            return;
        }
        long[] replicas = offsets(replicated, outReplicated);
        long[] positions = outputPositions();
        for (int r = 1; r < replicas.length; r++) {
            for (long position : positions) {
                copy.copy(position, position + replicas[r]);
            }
        }
    }

    /** @return the flat output offsets of replica 0: every batch, M and N index combined */
    public long[] outputPositions() {
        long[] b = offsets(batch, outBatch);
        long[] mm = offsets(m, outM);
        long[] nn = offsets(n, outN);
        long total = (long) b.length * mm.length * nn.length;
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a contraction of " + total + " outputs is too large for a position table");
        }
        long[] positions = new long[(int) total];
        int i = 0;
        for (long bb : b) {
            for (long m0 : mm) {
                for (long n0 : nn) {
                    positions[i++] = bb + m0 + n0;
                }
            }
        }
        return positions;
    }

    /** Copies one output element to another (flat indices). */
    @FunctionalInterface
    public interface ElementCopy {
        /**
         * @param from the element computed
         * @param to the element that holds the same value
         */
        void copy(long from, long to);
    }

    /** @return total batch count */
    public long batchSize() {
        return product(batch);
    }

    /** @return total M */
    public long mSize() {
        return product(m);
    }

    /** @return total N */
    public long nSize() {
        return product(n);
    }

    /** @return total K */
    public long kSize() {
        return product(k);
    }

    /** @return where the left operand's element (0, 0, 0) is */
    public long leftOffset() {
        return leftOffset;
    }

    /** @return where the right operand's element (0, 0, 0) is */
    public long rightOffset() {
        return rightOffset;
    }

    /** @return the left operand's strides along the merged batch dimensions */
    public long[] leftBatchStrides() {
        return leftBatch.clone();
    }

    /** @return the left operand's strides along the merged M dimensions */
    public long[] leftMStrides() {
        return leftM.clone();
    }

    /** @return the left operand's strides along the merged K dimensions */
    public long[] leftKStrides() {
        return leftK.clone();
    }

    /** @return the right operand's strides along the merged batch dimensions */
    public long[] rightBatchStrides() {
        return rightBatch.clone();
    }

    /** @return the right operand's strides along the merged K dimensions */
    public long[] rightKStrides() {
        return rightK.clone();
    }

    /** @return the right operand's strides along the merged N dimensions */
    public long[] rightNStrides() {
        return rightN.clone();
    }

    /** @return the output's strides along the merged batch dimensions */
    public long[] outBatchStrides() {
        return outBatch.clone();
    }

    /** @return the output's strides along the merged M dimensions */
    public long[] outMStrides() {
        return outM.clone();
    }

    /** @return the output's strides along the merged N dimensions */
    public long[] outNStrides() {
        return outN.clone();
    }

    /**
     * The offsets of every index of a group of merged dimensions: element i (row-major over the
     * lengths) is at {@code Σ index_d · strides[d]}. Backends use these tables to read operands of
     * any layout with one addition per index.
     *
     * @param lengths merged lengths
     * @param strides their strides
     * @return one offset per combined index
     */
    public static long[] offsets(int[] lengths, long[] strides) {
        long total = product(lengths);
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a contraction dimension of " + total + " elements is too long for an offset table");
        }
        long[] table = new long[(int) total];
        int[] index = new int[lengths.length];
        long position = 0;
        for (int i = 0; i < table.length; i++) {
            table[i] = position;
            for (int d = lengths.length - 1; d >= 0; d--) {
                position += strides[d];
                if (++index[d] < lengths[d]) {
                    break;
                }
                position -= strides[d] * lengths[d];
                index[d] = 0;
            }
        }
        return table;
    }

    private static long product(int[] lengths) {
        long product = 1;
        for (int length : lengths) {
            product = Math.multiplyExact(product, length);
        }
        return product;
    }

    /** @return whether the merged form is one plain matrix product: no batch, one M, one N and one K dimension */
    public boolean isSimpleMatrixProduct() {
        return batch.length == 0 && m.length == 1 && n.length == 1 && k.length == 1;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ContractSpec s && accumulation == s.accumulation && leftOffset == s.leftOffset
                && rightOffset == s.rightOffset && Arrays.equals(fullShape, s.fullShape)
                && Arrays.equals(leftShape, s.leftShape) && Arrays.equals(rightShape, s.rightShape)
                && Arrays.equals(roles, s.roles) && Arrays.equals(batch, s.batch) && Arrays.equals(m, s.m)
                && Arrays.equals(n, s.n) && Arrays.equals(k, s.k) && Arrays.equals(replicated, s.replicated)
                && Arrays.equals(outReplicated, s.outReplicated) && Arrays.equals(leftBatch, s.leftBatch)
                && Arrays.equals(leftM, s.leftM) && Arrays.equals(leftK, s.leftK)
                && Arrays.equals(rightBatch, s.rightBatch) && Arrays.equals(rightK, s.rightK)
                && Arrays.equals(rightN, s.rightN) && Arrays.equals(outBatch, s.outBatch)
                && Arrays.equals(outM, s.outM) && Arrays.equals(outN, s.outN);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(fullShape), Arrays.hashCode(roles), accumulation, leftOffset, rightOffset,
                Arrays.hashCode(leftM), Arrays.hashCode(leftK), Arrays.hashCode(rightK), Arrays.hashCode(rightN),
                Arrays.hashCode(leftBatch), Arrays.hashCode(rightBatch), Arrays.hashCode(leftShape), Arrays.hashCode(rightShape));
    }

    @Override
    public String toString() {
        return "batch " + Arrays.toString(batch) + " m " + Arrays.toString(m) + " n " + Arrays.toString(n)
                + " k " + Arrays.toString(k) + (hasReplicas() ? " replicated " + Arrays.toString(replicated) : "")
                + " left " + leftOffset + "+" + Arrays.toString(leftBatch)
                + Arrays.toString(leftM) + Arrays.toString(leftK) + " right " + rightOffset + "+"
                + Arrays.toString(rightBatch) + Arrays.toString(rightK) + Arrays.toString(rightN);
    }
}
