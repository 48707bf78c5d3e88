package dev.ein4j.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.ContractSpec.Role;
import org.junit.jupiter.api.Test;

class ContractSpecTest {

    /** The left operand [.., 1] of F = [b, i, o, d] summed over d, as einsum "b i d, o d -> b i o" aligns it. */
    @Test
    void aLinearLayerOverABatchIsOneMatrixProductWithMergedM() {
        int[] full = {4, 5, 3, 8};
        int[] left = {4, 5, 1, 8};
        int[] right = {1, 1, 3, 8};
        View leftView = View.contiguous(new int[] {4, 5, 8}).reshape(left);
        View rightView = View.contiguous(new int[] {3, 8}).reshape(right);
        ContractSpec spec = ContractSpec.of(full, left, right, new int[] {3}, leftView, rightView, DType.FLOAT32);
        assertThat(spec.roles()).containsExactly(Role.M, Role.M, Role.N, Role.K);
        assertThat(spec.isSimpleMatrixProduct()).isTrue();
        assertThat(spec.m()).containsExactly(20);
        assertThat(spec.leftMStrides()).containsExactly(8);
        assertThat(spec.leftKStrides()).containsExactly(1);
        assertThat(spec.rightNStrides()).containsExactly(8);
        assertThat(spec.rightKStrides()).containsExactly(1);
        assertThat(spec.outputShape()).containsExactly(4, 5, 3, 1);
        assertThat(spec.outMStrides()).containsExactly(3);
        assertThat(spec.outNStrides()).containsExactly(1);
    }

    @Test
    void batchAxesAreThoseBothOperandsHaveAndTheyMergeWhenContiguous() {
        int[] full = {2, 3, 4, 5, 6}; // b h i j d, summed d
        int[] left = {2, 3, 4, 1, 6};
        int[] right = {2, 3, 1, 5, 6};
        View leftView = View.contiguous(new int[] {2, 3, 4, 6}).reshape(left);
        View rightView = View.contiguous(new int[] {2, 3, 5, 6}).reshape(right);
        ContractSpec spec = ContractSpec.of(full, left, right, new int[] {4}, leftView, rightView, DType.FLOAT64);
        assertThat(spec.roles()).containsExactly(Role.BATCH, Role.BATCH, Role.M, Role.N, Role.K);
        assertThat(spec.batch()).as("b and h merge").containsExactly(6);
        assertThat(spec.leftBatchStrides()).containsExactly(24);
        assertThat(spec.rightBatchStrides()).containsExactly(30);
        assertThat(spec.outBatchStrides()).containsExactly(20);
    }

    @Test
    void axesDoNotMergeAcrossAPermutedLayout() {
        int[] full = {3, 4, 5};
        int[] left = {3, 4, 1};
        int[] right = {1, 1, 5};
        View leftView = View.contiguous(new int[] {4, 3}).permute(new int[] {1, 0}).reshape(left); // M axes transposed
        View rightView = View.contiguous(new int[] {5}).reshape(right);
        ContractSpec spec = ContractSpec.of(full, left, right, new int[0], leftView, rightView, DType.FLOAT32);
        assertThat(spec.m()).containsExactly(3, 4);
        assertThat(spec.leftMStrides()).containsExactly(1, 3);
        assertThat(spec.k()).isEmpty();
        assertThat(spec.kSize()).isEqualTo(1);
    }

    @Test
    void offsetTablesListEveryCombinedIndex() {
        assertThat(ContractSpec.offsets(new int[] {2, 3}, new long[] {10, 1})).containsExactly(0, 1, 2, 10, 11, 12);
        assertThat(ContractSpec.offsets(new int[0], new long[0])).containsExactly(0);
    }

    @Test
    void specsAreValues() {
        int[] full = {3, 4};
        View a = View.contiguous(new int[] {3, 4});
        View b = View.contiguous(new int[] {1, 4}).reshape(new int[] {1, 4});
        ContractSpec one = ContractSpec.of(full, full, new int[] {1, 4}, new int[] {1}, a, b, DType.FLOAT32);
        ContractSpec two = ContractSpec.of(full, full, new int[] {1, 4}, new int[] {1}, a, b, DType.FLOAT32);
        assertThat(one).isEqualTo(two).hasSameHashCodeAs(two);
        assertThat(one).isNotEqualTo(ContractSpec.of(full, full, new int[] {1, 4}, new int[] {1}, a, b, DType.FLOAT64));
        assertThatThrownBy(() -> ContractSpec.of(full, full, full, new int[] {1}, a.pad(new int[] {0, 0}, new int[] {0, 0}, 0)
                .pad(new int[] {1, 0}, new int[] {0, 0}, 0).shrink(new int[] {0, 0}, new int[] {3, 4}), a, DType.FLOAT32))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
