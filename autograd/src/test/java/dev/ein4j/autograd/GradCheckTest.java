package dev.ein4j.autograd;

import static dev.ein4j.autograd.GradTesting.input;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GradCheck itself: it passes correct gradients and detects wrong ones. */
class GradCheckTest {

    @Test
    void detectsAGradientMadeWrongByDetach() {
        // f(x) = x * detach(x): the true derivative is 2x, autograd sees only x
        Tensor x = input(1, 3, 4);
        GradCheck.Result result = GradCheck.check(in -> in.get(0).mul(in.get(0).detach()), List.of(x));
        assertThat(result.passed(1e-6)).as("%s", result).isFalse();
        assertThat(result.worst()).as("%s", result).isGreaterThan(0.1);
    }

    @Test
    void theErrorIsHalfTheSlopeForTheDetachedSquare() {
        // with upstream u, analytic = u·x, numeric = 2u·x: error = |u x| / max(1, 2|u x|)
        Tensor x = Tensor.of(new double[] {3.0}, 1);
        GradCheck.Result result = GradCheck.check(in -> in.get(0).mul(in.get(0).detach()), List.of(x));
        double u = GradCheck.randomInput(12345, GradCheck.Domain.ANY, 1).item();
        double analytic = u * 3.0;
        double numeric = 2 * u * 3.0;
        double expected = Math.abs(analytic - numeric) / Math.max(1.0, Math.max(Math.abs(analytic), Math.abs(numeric)));
        assertThat(result.worst()).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void reportsTheWrongInputOnly() {
        Tensor x = input(2, 2, 3);
        Tensor y = input(3, 2, 3);
        GradCheck.Result result = GradCheck.check(in -> in.get(0).sin().add(in.get(1).mul(in.get(1).detach())),
                List.of(x, y));
        assertThat(result.worstErrors()).hasSize(2);
        assertThat(result.worstErrors()[0]).as("x has a correct gradient: %s", result).isLessThan(1e-6);
        assertThat(result.worstErrors()[1]).as("y's gradient is wrong: %s", result).isGreaterThan(0.1);
        assertThat(result.worst()).isEqualTo(result.worstErrors()[1]);
    }

    @Test
    void detectsAGradientThatIsMissingThroughANoGradScope() {
        Tensor x = input(4, 5);
        GradCheck.Result result = GradCheck.check(in -> in.get(0).sin().add(Autograd.noGrad(() -> in.get(0).exp())),
                List.of(x));
        assertThat(result.passed(1e-3)).as("%s", result).isFalse();
    }

    @Test
    void passesCorrectGradients() {
        GradCheck.Result result = GradCheck.check(in -> in.get(0).mul(in.get(0)).sin().mul(in.get(1)),
                List.of(input(5, 3, 2), input(6, 2)));
        assertThat(result.passed(1e-6)).as("%s", result).isTrue();
        assertThat(result.worstErrors()).hasSize(2);
    }

    @Test
    void nanGradientsCountAsInfiniteErrors() {
        // log at a negative point: NaN both ways
        Tensor x = Tensor.of(new double[] {-1.0, 2.0}, 2);
        GradCheck.Result result = GradCheck.check(in -> in.get(0).log(), List.of(x));
        assertThat(result.worst()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(result.passed(1e9)).isFalse();
    }

    @Test
    void rejectsFloat32Inputs() {
        Tensor x32 = Tensor.of(new float[] {1f, 2f, 3f}, 3);
        assertThatThrownBy(() -> GradCheck.check(in -> in.get(0).sin(), List.of(x32)))
                .isInstanceOf(EinopsException.class)
                .hasMessageContaining("float64");
        Tensor x64 = input(7, 3);
        assertThatThrownBy(() -> GradCheck.check(in -> in.get(0).add(in.get(1)), List.of(x64, x32)))
                .isInstanceOf(EinopsException.class);
    }

    @Test
    void doesNotModifyItsInputs() {
        Tensor x = input(8, 2, 3);
        double[] before = x.toDoubleArray();
        GradCheck.check(in -> in.get(0).exp(), List.of(x));
        assertThat(x.toDoubleArray()).containsExactly(before);
    }

    @Test
    void randomInputsAreSeededAndInTheirDomains() {
        assertThat(GradCheck.randomInput(9, GradCheck.Domain.ANY, 4, 5).toDoubleArray())
                .containsExactly(GradCheck.randomInput(9, GradCheck.Domain.ANY, 4, 5).toDoubleArray());
        Tensor positive = GradCheck.randomInput(10, GradCheck.Domain.POSITIVE, 50);
        assertThat(positive.dtype()).isEqualTo(DType.FLOAT64);
        for (double v : positive.toDoubleArray()) {
            assertThat(v).isBetween(0.5, 2.0);
        }
        double[] tieFree = GradCheck.randomInput(11, GradCheck.Domain.TIE_FREE, 60).toDoubleArray();
        double[] sorted = tieFree.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            assertThat(sorted[i] - sorted[i - 1]).as("gap %d", i).isGreaterThanOrEqualTo(0.0399);
        }
        assertThat(tieFree).as("shuffled").isNotEqualTo(sorted);
    }

    @Test
    void tieFreeValuesAreAsFarApartAsDocumented() {
        // GradCheck.Domain.TIE_FREE is documented as "distinct values at least 0.05 apart"; the generator
        // draws (i − n/2)·0.05 + U[0, 0.01), so neighbours can be as close as 0.04 (seed 0, 6 values: gaps 0.0455 and 0.0414)
        double[] values = GradCheck.randomInput(0, GradCheck.Domain.TIE_FREE, 6).toDoubleArray();
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            assertThat(sorted[i] - sorted[i - 1]).as("gap between %s and %s in %s", sorted[i - 1], sorted[i],
                    Arrays.toString(values)).isGreaterThanOrEqualTo(0.05);
        }
    }
}
