package dev.ein4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.autograd.GradCheck;
import dev.ein4j.ir.DType;
import dev.ein4j.nn.AttentionOptions;
import dev.ein4j.nn.Functional;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The attention core: grouped heads, masks by positions and padding, gradients. */
class AttentionHeadsTest {

    private static Tensor random(long seed, int... shape) {
        return Tensor.randn(new Generator(seed), DType.FLOAT64, shape);
    }

    private static void assertClose(Tensor actual, Tensor expected) {
        double[] a = actual.toDoubleArray();
        double[] e = expected.toDoubleArray();
        assertThat(a).hasSameSizeAs(e);
        for (int i = 0; i < a.length; i++) {
            assertThat(Math.abs(a[i] - e[i])).as("element %d", i).isLessThan(1e-12);
        }
    }

    @Test
    void groupedHeadsReadTheirKeyValueHeadAsRepeatKvDoes() {
        Tensor q = random(1, 2, 6, 4, 8);
        Tensor k = random(2, 2, 2, 5, 8);
        Tensor v = random(3, 2, 2, 5, 3);
        Tensor repeatedK = k.repeat("b g s d -> b (g r) s d", Axes.of("r", 3));
        Tensor repeatedV = v.repeat("b g s d -> b (g r) s d", Axes.of("r", 3));
        Tensor expected = Functional.scaledDotProductAttention(q, repeatedK, repeatedV, AttentionOptions.defaults().scale(0.3));
        assertClose(AttentionHeads.attend(q, k, v, null, 0.3), expected);
    }

    @Test
    void theCausalMaskFollowsPositionsSoThatCachedKeysStayVisible() {
        Tensor keep = AttentionHeads.causal(Tensor.of(new int[] {2, 3}), Tensor.of(new int[] {0, 1, 2, 3}), null);
        assertThat(keep.shape()).containsExactly(1, 1, 2, 4);
        assertThat(keep.toBooleanArray()).containsExactly(true, true, true, false, true, true, true, true);
        Tensor padded = AttentionHeads.causal(AttentionHeads.positions(3), AttentionHeads.positions(3),
                Tensor.of(new boolean[] {true, true, true, false, true, true}, 2, 3));
        assertThat(padded.shape()).containsExactly(2, 1, 3, 3);
        assertThat(padded.toBooleanArray()).containsExactly(
                true, false, false, true, true, false, true, true, true,
                false, false, false, false, true, false, false, true, true);
    }

    @Test
    void splitAndMergeAreInverseRearranges() {
        Tensor x = random(4, 2, 3, 12);
        Tensor heads = AttentionHeads.split(x, 4);
        assertThat(heads.shape()).containsExactly(2, 4, 3, 3);
        assertThat(heads.get(1, 2, 0, 1)).isEqualTo(x.get(1, 0, 2 * 3 + 1));
        assertClose(AttentionHeads.merge(heads), x);
    }

    @Test
    void gradientsThroughGroupedMaskedAttentionMatchFiniteDifferences() {
        Tensor keep = AttentionHeads.causal(AttentionHeads.positions(3), AttentionHeads.positions(3),
                Tensor.of(new boolean[] {true, true, true, false, true, true}, 2, 3));
        GradCheck.Result result = GradCheck.check(in -> AttentionHeads.attend(in.get(0), in.get(1), in.get(2), keep, 0.7),
                List.of(random(5, 2, 4, 3, 2), random(6, 2, 2, 3, 2), random(7, 2, 2, 3, 2)));
        assertThat(result.passed(1e-7)).as("%s", result).isTrue();
    }
}
