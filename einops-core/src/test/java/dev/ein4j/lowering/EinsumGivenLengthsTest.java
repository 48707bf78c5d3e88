package dev.ein4j.lowering;

import static dev.ein4j.lowering.LoweringTest.naive;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ein4j.error.PatternSyntaxException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.testing.Close;
import dev.ein4j.testing.NdArray;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code Ein.einsum(pattern, axes, operands...)} with lengths given by name for axes inside input
 * compositions and for window kernels: values against naive loops, and every way a given length
 * can disagree with the operands, each a {@link ShapeException} naming the axis and both lengths.
 */
class EinsumGivenLengthsTest {

    private static NdArray random(long seed, int... shape) {
        return NdArray.random(new SplittableRandom(seed), shape, -1, 1);
    }

    private static Tensor of(NdArray array) {
        return Tensor.of(array.data, array.shape);
    }

    private static void assertValues(String what, Tensor actual, NdArray expected) {
        assertThat(actual.shape()).as(what + " shape").containsExactly(expected.shape);
        Close.assertClose(what, actual.toDoubleArray(), expected.data, 1e-12, 1e-13);
    }

    private static ShapeException shapeError(Runnable call) {
        ShapeException error = catchThrowableOfType(ShapeException.class, call::run);
        assertThat(error).as("a ShapeException").isNotNull();
        return error;
    }

    // ------------------------------------------------------------------ compositions

    private final NdArray x = random(1, 2, 6);      // b (h d), h = 2, d = 3
    private final NdArray w = random(2, 2, 3, 4);   // h d e

    @Test
    void eitherAxisOfACompositionMayBeGivenWhenAnotherOperandNamesBoth() {
        NdArray expected = naive("be", "bhd", x.reshape(2, 2, 3), "hde", w);
        assertValues("h given", Ein.einsum("b (h d), h d e -> b e", Axes.of("h", 2), of(x), of(w)), expected);
        assertValues("d given", Ein.einsum("b (h d), h d e -> b e", Axes.of("d", 3), of(x), of(w)), expected);
        assertValues("both given", Ein.einsum("b (h d), h d e -> b e", Axes.of("h", 2, "d", 3), of(x), of(w)), expected);
        assertValues("none given", Ein.einsum("b (h d), h d e -> b e", of(x), of(w)), expected);
    }

    @Test
    void aCompositionThatOnlyTheGivenLengthsCanSplit() {
        NdArray v = random(3, 4);
        NdArray expected = naive("bhde", "bhd", x.reshape(2, 2, 3), "e", v);
        assertValues("h given", Ein.einsum("b (h d), e -> b h d e", Axes.of("h", 2), of(x), of(v)), expected);
        assertValues("d given", Ein.einsum("b (h d), e -> b h d e", Axes.of("d", 3), of(x), of(v)), expected);
        ShapeException neither = shapeError(() -> Ein.einsum("b (h d), e -> b h d e", of(x), of(v)));
        assertThat(neither.reason()).isEqualTo("cannot infer the lengths of h and d from (h d) of length 6: "
                + "another operand must name all but one of them");
        assertThat(neither.column()).isEqualTo(3);
    }

    @Test
    void aGivenLengthThatDisagreesWithAnotherOperandNamesBoth() {
        ShapeException error = shapeError(() -> Ein.einsum("b (h d), h d e -> b e", Axes.of("h", 3), of(x), of(w)));
        assertThat(error.reason()).isEqualTo("axis h has length 3 as given but 2 in operand 1");
        assertThat(error.column()).isEqualTo(10);
        assertThat(error.axisLengths()).containsEntry("h", 3L);
        assertThat(error.getMessage()).contains("input shapes: [2, 6], [2, 3, 4]").contains("axis lengths: {h=3}");
    }

    @Test
    void aGivenLengthThatDisagreesWithItsCompositionNamesTheLengthItMustHave() {
        NdArray m = random(4, 3, 5); // d e
        ShapeException error = shapeError(() -> Ein.einsum("b (h d), d e -> b h e", Axes.of("h", 4), of(x), of(m)));
        assertThat(error.reason()).isEqualTo("axis h is given length 4, but dimension (h d) of length 6 makes it 2 "
                + "(its other axes multiply to 3)");
        assertThat(error.column()).isEqualTo(3);
    }

    @Test
    void aGivenLengthThatCannotDivideItsComposition() {
        ShapeException error = shapeError(() -> Ein.einsum("b (h d), e -> b h d e", Axes.of("h", 4), of(x), of(random(5, 4))));
        assertThat(error.reason()).isEqualTo("axis d: length 6 cannot be split into (h d), 6 is not divisible by 4");
        ShapeException both = shapeError(() -> Ein.einsum("b (h d) -> b h d", Axes.of("h", 2, "d", 2), of(x)));
        assertThat(both.reason()).isEqualTo("dimension (h d) has length 6, but its axes multiply to 4");
    }

    @Test
    void aGivenNameThatNoOperandHas() {
        ShapeException error = shapeError(() -> Ein.einsum("b (h d) -> b h d", Axes.of("h", 2, "z", 2), of(x)));
        assertThat(error.reason()).isEqualTo("axis z is given a length but appears in no operand");
    }

    // ------------------------------------------------------------------ windows

    private final NdArray signal = random(6, 2, 8);   // b (h + k)

    /** out[b, h, k] = signal[b, s·h + d·k]. */
    private NdArray windows(int stride, int dilation, int kernel) {
        int positions = (8 - dilation * (kernel - 1) - 1) / stride + 1;
        double[] data = new double[2 * positions * kernel];
        for (int b = 0; b < 2; b++) {
            for (int h = 0; h < positions; h++) {
                for (int k = 0; k < kernel; k++) {
                    data[(b * positions + h) * kernel + k] = signal.get(b, stride * h + dilation * k);
                }
            }
        }
        return new NdArray(new int[] {2, positions, kernel}, data);
    }

    @Test
    void aWindowsKernelLengthMayBeGiven() {
        assertValues("stride 1", Ein.einsum("b (h + k) -> b h k", Axes.of("k", 3), of(signal)), windows(1, 1, 3));
        assertValues("stride 2", Ein.einsum("b (2*h + k) -> b h k", Axes.of("k", 3), of(signal)), windows(2, 1, 3));
        assertValues("dilation 2", Ein.einsum("b (h + 2*k) -> b h k", Axes.of("k", 2), of(signal)), windows(1, 2, 2));
        NdArray kernel = random(7, 3);
        NdArray correlation = naive("bh", "bhk", windows(1, 1, 3), "k", kernel);
        assertValues("given and named by the kernel", Ein.einsum("b (h + k), k -> b h", Axes.of("k", 3), of(signal), of(kernel)),
                correlation);
        assertValues("given position and kernel", Ein.einsum("b (h + k), k -> b h", Axes.of("h", 6, "k", 3), of(signal),
                of(kernel)), correlation);
    }

    @Test
    void aGivenKernelLengthThatDisagreesWithTheKernelOperand() {
        ShapeException error = shapeError(() -> Ein.einsum("b (h + k), k -> b h", Axes.of("k", 2), of(signal), of(random(7, 3))));
        assertThat(error.reason()).isEqualTo("axis k has length 2 as given but 3 in operand 1");
        assertThat(error.column()).isEqualTo(12);
    }

    @Test
    void aGivenKernelLongerThanTheInput() {
        ShapeException error = shapeError(() -> Ein.einsum("b (h + k) -> b h k", Axes.of("k", 9), of(signal)));
        assertThat(error.reason()).isEqualTo("window (h + k) spans 9 elements (kernel k = 9, dilation 1) but the input has length 8");
        assertThat(error.column()).isEqualTo(3);
    }

    @Test
    void aGivenPositionCountThatDisagreesWithTheWindow() {
        ShapeException error = shapeError(() -> Ein.einsum("b (h + k) -> b h k", Axes.of("h", 2, "k", 3), of(signal)));
        assertThat(error.reason()).isEqualTo("window (h + k) over length 8 has 6 positions, but h is given length 2");
        assertThat(error.column()).isEqualTo(3);
    }

    @Test
    void aKernelLengthThatNothingGives() {
        ShapeException error = shapeError(() -> Ein.einsum("b (h + k) -> b h k", Axes.of("h", 6), of(signal)));
        assertThat(error.reason()).startsWith("cannot infer the lengths of k (a window's kernel length: give it, or let "
                + "another operand name it) from (h + k) of length 8");
    }

    @Test
    void aWindowNamingOneAxisTwiceIsASyntaxErrorWhateverTheLengths() {
        PatternSyntaxException error = catchThrowableOfType(PatternSyntaxException.class,
                () -> Ein.einsum("b (2*h + 3*h) -> b h", Axes.of("h", 2), of(signal)));
        assertThat(error).isNotNull();
        assertThat(error.reason()).isEqualTo("window (2*h + 3*h) names axis 'h' twice: its position and its kernel are "
                + "two different axes");
        assertThat(error.column()).isEqualTo(10);
    }
}
