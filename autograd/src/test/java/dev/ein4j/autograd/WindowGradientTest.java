package dev.ein4j.autograd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.Op;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Tensor;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Gradients through windows: unfold, pooling, and convolutions of every stride, dilation and grouping. */
class WindowGradientTest {

    private static Tensor input(long seed, int... shape) {
        return GradCheck.randomInput(seed, GradCheck.Domain.ANY, shape);
    }

    private static void check(String what, java.util.function.Function<List<Tensor>, Tensor> f, Tensor... inputs) {
        GradCheck.Result result = GradCheck.check(f, List.of(inputs));
        assertThat(result.passed(1e-7)).as("%s: %s", what, result).isTrue();
    }

    @Test
    void unfoldAndPoolingGradientsPassGradientChecks() {
        check("unfold", in -> in.get(0).rearrange("b (2*h + kh) -> b h kh", Axes.of("kh", 3)).sin(), input(1, 2, 9));
        check("dilated unfold", in -> in.get(0).rearrange("b (h + 2*kh) -> b h kh", Axes.of("kh", 3)).sin(), input(2, 2, 9));
        check("average pooling", in -> in.get(0).reduce("b c (2*h + kh) (2*w + kw) -> b c h w", "mean",
                Axes.of("kh", 2, "kw", 2)).sin(), input(3, 2, 2, 6, 6));
        check("max pooling", in -> in.get(0).reduce("b c (2*h + kh) (2*w + kw) -> b c h w", "max",
                Axes.of("kh", 2, "kw", 2)), GradCheck.randomInput(4, GradCheck.Domain.TIE_FREE, 1, 2, 4, 4));
    }

    @Test
    void convolutionGradientsPassGradientChecks() {
        String[] patterns = {
            "b c (h + kh) (w + kw), o c kh kw -> b o h w",
            "b c (2*h + kh) (w + kw), o c kh kw -> b o h w",
            "b c (h + 2*kh) (2*w + kw), o c kh kw -> b o h w",
            "b (g c) (h + kh) (w + kw), (g o) c kh kw -> b (g o) h w",
        };
        for (String pattern : patterns) {
            boolean grouped = pattern.contains("(g c)");
            Tensor x = input(pattern.length(), 2, 4, 7, 6);
            Tensor w = input(pattern.length() + 1, 4, grouped ? 2 : 4, 3, 2);
            java.util.function.Function<List<Tensor>, Tensor> conv = grouped
                    ? in -> Ein.einsum(pattern, Axes.of("g", 2), in.get(0), in.get(1)).tanh()
                    : in -> Ein.einsum(pattern, in.get(0), in.get(1)).tanh();
            check(pattern, conv, x, w);
        }
        check("conv1d with bias and stride", in -> Ein.einsum("b c (3*l + k), o c k -> b o l", in.get(0), in.get(1))
                .add(in.get(2).reshape(1, 3, 1)).sin(), input(7, 2, 2, 11), input(8, 3, 2, 3), input(9, 3));
    }

    @Test
    void paddedConvolutionGradientsPassGradientChecks() {
        check("padding 1", in -> Ein.einsum("b c (h + kh) (w + kw), o c kh kw -> b o h w",
                in.get(0).pad(new int[] {0, 0, 1, 1}, new int[] {0, 0, 1, 1}, 0.0), in.get(1)).tanh(),
                input(20, 2, 3, 5, 6), input(21, 4, 3, 3, 3));
        check("uneven padding, stride 2 and dilation 2", in -> Ein.einsum("b c (2*h + kh) (w + 2*kw), o c kh kw -> b o h w",
                in.get(0).pad(new int[] {0, 0, 2, 0}, new int[] {0, 0, 1, 3}, 0.0), in.get(1)).sin(),
                input(22, 2, 2, 7, 5), input(23, 3, 2, 3, 2));
        check("padding filled with 1", in -> Ein.einsum("b c (h + kh) (w + kw), o c kh kw -> b o h w",
                in.get(0).pad(new int[] {0, 0, 1, 2}, new int[] {0, 0, 1, 0}, 1.0), in.get(1)).tanh(),
                input(24, 1, 2, 4, 4), input(25, 2, 2, 2, 2));
        check("padding of the channels too", in -> Ein.einsum("b c (h + kh) (w + kw), o c kh kw -> b o h w",
                in.get(0).pad(new int[] {0, 1, 1, 1}, new int[] {0, 0, 1, 1}, 0.0), in.get(1)).tanh(),
                input(26, 2, 2, 4, 5), input(27, 3, 3, 3, 3));
        check("the padded input read twice", in -> {
            Tensor padded = in.get(0).pad(new int[] {0, 0, 1, 1}, new int[] {0, 0, 1, 1}, 0.0);
            return Ein.einsum("b c (h + kh) (w + kw), o c kh kw -> b o h w", padded, in.get(1)).tanh().sum()
                    .add(padded.sin().sum());
        }, input(28, 2, 2, 4, 4), input(29, 3, 2, 3, 3));
    }

    @Test
    void aPaddedConvolutionsInputGradientIsComputedOnlyAtTheUnpaddedPositions() {
        Tensor x = input(30, 2, 3, 12, 12).requireGrad();
        Tensor w = input(31, 4, 3, 3, 3).requireGrad();
        Tensor padded = x.pad(new int[] {0, 0, 1, 1}, new int[] {0, 0, 1, 1}, 0.0);
        Tensor y = Ein.einsum("b c (h + kh) (w + kw), o c kh kw -> b o h w", padded, w);
        String plan = Autograd.grad(y.sum(), List.of(x)).get(0).explain();
        assertThat(plan).as(plan).containsPattern("contract -> %\\d+ float64\\[2,3,12,12[,1]*\\]")
                .doesNotContainPattern("contract -> %\\d+ float64\\[2,3,14,14");
    }

    @Test
    void theInputGradientOfAConvolutionIsATransposedConvolutionWithoutAnIm2colBuffer() {
        Tensor x = input(10, 2, 3, 12, 12).requireGrad();
        Tensor w = input(11, 4, 3, 3, 3).requireGrad();
        Tensor y = Ein.einsum("b c (h + kh) (w + kw), o c kh kw -> b o h w", x, w);
        List<Tensor> gradients = Autograd.grad(y.sum(), List.of(x, w));
        java.util.Set<Op> ops = GradTesting.opsIn(gradients.get(0));
        assertThat(ops).as("the input's gradient reads the cotangent through a window").contains(Op.WINDOW, Op.CONTRACT);
        long im2col = 2L * 3 * 10 * 3 * 10 * 3;
        long paddedCotangent = 2L * 4 * 14 * 14; // the largest buffer a transposed convolution needs
        String plan = gradients.get(0).explain() + gradients.get(1).explain();
        for (String line : plan.split("\n")) {
            java.util.regex.Matcher buffer = java.util.regex.Pattern.compile("^\\d+\\. .* -> %\\d+ \\w+\\[([0-9,]*)\\]").matcher(line);
            if (buffer.find()) {
                long size = 1;
                for (String length : buffer.group(1).split(",")) {
                    size *= length.isEmpty() ? 1 : Long.parseLong(length);
                }
                assertThat(size).as("buffer of %s", line).isLessThanOrEqualTo(paddedCotangent).isLessThan(im2col / 3);
            }
        }
    }
}
