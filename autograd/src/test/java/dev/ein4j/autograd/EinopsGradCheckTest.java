package dev.ein4j.autograd;

import static dev.ein4j.autograd.GradTesting.assertGradients;
import static dev.ein4j.autograd.GradTesting.assertShape;
import static dev.ein4j.autograd.GradTesting.input;
import static dev.ein4j.autograd.GradTesting.positive;
import static dev.ein4j.autograd.GradTesting.tieFree;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Packed;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Gradient checks of the einops operations (rearrange, reduce, repeat, einsum in both notations,
 * pack and unpack): everything is lowered to primitives, so these check the rules in the
 * combinations the lowerings produce. Lengths come from a seeded generator.
 */
class EinopsGradCheckTest {

    private static final int TRIALS = 3;

    /** A length in [from, from + spread). */
    private static int length(SplittableRandom random, int from, int spread) {
        return from + random.nextInt(spread);
    }

    // ------------------------------------------------------------------ rearrange

    @Test
    void rearrangePatterns() {
        SplittableRandom random = new SplittableRandom(201);
        for (int t = 0; t < TRIALS; t++) {
            int b = length(random, 1, 2);
            int c = length(random, 2, 2);
            int h = length(random, 1, 3);
            int w = length(random, 2, 2);
            assertGradients("b c h w -> b h w c", in -> in.get(0).rearrange("b c h w -> b h w c").sin(),
                    input(t, b, c, h, w));
            assertGradients("b c h w -> b (w h) c (composition with transposition)",
                    in -> in.get(0).rearrange("b c h w -> b (w h) c").mul(in.get(0).rearrange("b c h w -> b (w h) c")),
                    input(t + 10, b, c, h, w));
            assertGradients("b (h w) c -> b h w c",
                    in -> in.get(0).rearrange("b (h w) c -> w b h c", Axes.of("h", h)).exp(), input(t + 20, b, h * w, c));
            assertGradients("(b1 b2) h w -> (b1 h) (b2 w)",
                    in -> in.get(0).rearrange("(b1 b2) h w -> (b1 h) (b2 w)", Axes.of("b1", 2)).sin(),
                    input(t + 30, 2 * b, h, w));
            assertGradients("... c -> c ... (ellipsis)",
                    in -> in.get(0).rearrange("... c -> c ...").sin(), input(t + 40, b, h, c));
            assertGradients("a ... d -> (d a) ... (ellipsis and composition)",
                    in -> in.get(0).rearrange("a ... d -> (d a) ...").exp(), input(t + 50, b, h, w, c));
            assertGradients("a b -> a () b 1 (unit axes)",
                    in -> in.get(0).rearrange("a b -> a () b ()").sin(), input(t + 60, c, w));
        }
    }

    // ------------------------------------------------------------------ reduce

    @Test
    void reduceSumAndMean() {
        SplittableRandom random = new SplittableRandom(202);
        for (int t = 0; t < TRIALS; t++) {
            int b = length(random, 1, 2);
            int h = length(random, 1, 2);
            int w = length(random, 1, 3);
            int c = length(random, 2, 2);
            for (String reduction : List.of("sum", "mean")) {
                assertGradients("b (h 2) (w 2) c -> b h w c, " + reduction,
                        in -> in.get(0).reduce("b (h 2) (w 2) c -> b h w c", reduction).sin(), input(t, b, 2 * h, 2 * w, c));
                assertGradients("b c x -> c, " + reduction,
                        in -> in.get(0).reduce("b c x -> c", reduction).exp(), input(t + 10, b, c, w));
                assertGradients("... c -> c, " + reduction,
                        in -> in.get(0).reduce("... c -> c", reduction).sin(), input(t + 20, b, h, c));
            }
        }
    }

    @Test
    void reduceMaxAndMinOnTieFreeInputs() {
        SplittableRandom random = new SplittableRandom(203);
        for (int t = 0; t < TRIALS; t++) {
            int b = length(random, 1, 2);
            int h = length(random, 1, 2);
            int w = length(random, 1, 3);
            for (String reduction : List.of("max", "min")) {
                assertGradients("b (h 2) (w 2) -> b h w, " + reduction,
                        in -> in.get(0).reduce("b (h 2) (w 2) -> b h w", reduction).sin(), tieFree(t, b, 2 * h, 2 * w));
                assertGradients("b c x -> b, " + reduction,
                        in -> in.get(0).reduce("b c x -> b", reduction), tieFree(t + 10, b, 3, w));
                assertGradients("b c x -> b 1 x (keep as unit axis), " + reduction,
                        in -> in.get(0).reduce("b c x -> b () x", reduction), tieFree(t + 20, b, 3, w));
            }
        }
    }

    @Test
    void reduceProd() {
        SplittableRandom random = new SplittableRandom(204);
        for (int t = 0; t < TRIALS; t++) {
            int b = length(random, 1, 2);
            int h = length(random, 1, 2);
            int w = length(random, 1, 3);
            assertGradients("b (h 2) w -> b h, prod",
                    in -> in.get(0).reduce("b (h 2) w -> b h", "prod"), input(t, b, 2 * h, w));
            assertGradients("b c x -> c, prod",
                    in -> in.get(0).reduce("b c x -> c", "prod").sin(), positive(t + 10, b, 3, w));
        }
        assertGradients("prod with zeros in a group",
                in -> in.get(0).reduce("a b -> a", "prod"),
                Tensor.of(new double[] {0, 2, 3, 0, 0, 1.5, -1, 0.5, 2}, 3, 3));
    }

    // ------------------------------------------------------------------ repeat

    @Test
    void repeatPatterns() {
        SplittableRandom random = new SplittableRandom(205);
        for (int t = 0; t < TRIALS; t++) {
            int h = length(random, 1, 3);
            int w = length(random, 2, 2);
            assertGradients("h w -> h w c",
                    in -> in.get(0).repeat("h w -> h w c", Axes.of("c", 3)).mul(in.get(1)),
                    input(t, h, w), input(t + 100, h, w, 3));
            assertGradients("h w -> (h 2) (w 3)",
                    in -> in.get(0).repeat("h w -> (h 2) (w 3)").sin(), input(t + 10, h, w));
            assertGradients("h w -> (r h) w",
                    in -> in.get(0).repeat("h w -> (r h) w", Axes.of("r", 2)).mul(in.get(1)),
                    input(t + 20, h, w), input(t + 200, 2 * h, w));
            assertGradients("... w -> ... b w",
                    in -> in.get(0).repeat("... w -> b ... w", Axes.of("b", 2)).exp(), input(t + 30, h, w));
        }
    }

    // ------------------------------------------------------------------ einsum, einops notation

    @Test
    void einsumMatmul() {
        SplittableRandom random = new SplittableRandom(206);
        for (int t = 0; t < TRIALS; t++) {
            int i = length(random, 1, 4);
            int j = length(random, 1, 4);
            int k = length(random, 1, 4);
            assertGradients("i j, j k -> i k", in -> Ein.einsum("i j, j k -> i k", in.get(0), in.get(1)).sin(),
                    input(t, i, j), input(t + 10, j, k));
        }
    }

    @Test
    void einsumAttentionScores() {
        SplittableRandom random = new SplittableRandom(207);
        for (int t = 0; t < TRIALS; t++) {
            int b = length(random, 1, 2);
            int h = length(random, 1, 2);
            int i = length(random, 2, 2);
            int j = length(random, 1, 3);
            int d = length(random, 2, 2);
            assertGradients("b h i d, b h j d -> b h i j",
                    in -> Ein.einsum("b h i d, b h j d -> b h i j", in.get(0), in.get(1)),
                    input(t, b, h, i, d), input(t + 10, b, h, j, d));
        }
    }

    @Test
    void einsumThreeOperandChain() {
        SplittableRandom random = new SplittableRandom(208);
        for (int t = 0; t < TRIALS; t++) {
            int i = length(random, 1, 3);
            int j = length(random, 2, 2);
            int k = length(random, 1, 3);
            int l = length(random, 1, 3);
            assertGradients("i j, j k, k l -> i l",
                    in -> Ein.einsum("i j, j k, k l -> i l", in.get(0), in.get(1), in.get(2)),
                    input(t, i, j), input(t + 10, j, k), input(t + 20, k, l));
        }
        assertGradients("i j, j, i -> (bilinear form to a scalar)",
                in -> Ein.einsum("i j, j, i ->", in.get(0), in.get(1), in.get(2)),
                input(30, 3, 4), input(31, 4), input(32, 3));
    }

    @Test
    void einsumTraceAndDiagonals() {
        SplittableRandom random = new SplittableRandom(209);
        for (int t = 0; t < TRIALS; t++) {
            int n = length(random, 2, 4);
            int b = length(random, 1, 3);
            assertGradients("i i -> (trace)", in -> Ein.einsum("i i ->", in.get(0)), input(t, n, n));
            assertGradients("i i -> i (diagonal)", in -> Ein.einsum("i i -> i", in.get(0)).sin(), input(t + 10, n, n));
            assertGradients("b i i -> b i", in -> Ein.einsum("b i i -> b i", in.get(0)).exp(), input(t + 20, b, n, n));
        }
    }

    @Test
    void traceGradientIsTheIdentity() {
        Tensor x = input(40, 3, 3);
        assertThat(GradTesting.gradient(Ein.einsum("i i ->", x), x).toDoubleArray())
                .containsExactly(1, 0, 0, 0, 1, 0, 0, 0, 1);
    }

    @Test
    void einsumWithCompositions() {
        SplittableRandom random = new SplittableRandom(210);
        for (int t = 0; t < TRIALS; t++) {
            int b = length(random, 1, 2);
            int h = length(random, 1, 2);
            int d = length(random, 2, 2);
            int e = length(random, 1, 3);
            assertGradients("b (h d), h d e -> b h e",
                    in -> Ein.einsum("b (h d), h d e -> b h e", in.get(0), in.get(1)),
                    input(t, b, h * d), input(t + 10, h, d, e));
        }
    }

    @Test
    void einsumEinopsNotationWithEllipsisBroadcasting() {
        assertGradients("... i j, ... j k -> ... i k with batch 1 vs 3",
                in -> Ein.matmul(in.get(0), in.get(1)).sin(), input(50, 1, 2, 3), input(51, 3, 3, 2));
    }

    // ------------------------------------------------------------------ einsum, numpy notation

    @Test
    void einsumNumpyNotation() {
        SplittableRandom random = new SplittableRandom(211);
        for (int t = 0; t < TRIALS; t++) {
            int i = length(random, 1, 4);
            int j = length(random, 2, 3);
            int k = length(random, 1, 4);
            assertGradients("ij,jk->ik", in -> Ein.einsumNumpy("ij,jk->ik", in.get(0), in.get(1)),
                    input(t, i, j), input(t + 10, j, k));
            assertGradients("ij,jk (implicit output ik)", in -> Ein.einsumNumpy("ij,jk", in.get(0), in.get(1)).sin(),
                    input(t + 20, i, j), input(t + 30, j, k));
            assertGradients("ii->i", in -> Ein.einsumNumpy("ii->i", in.get(0)).exp(), input(t + 40, j, j));
        }
    }

    @Test
    void einsumNumpyBroadcastBatch() {
        int[][][] shapes = {
            {{1, 2, 3}, {3, 3, 2}},
            {{3, 2, 3}, {1, 3, 4}},
            {{2, 1, 2, 3}, {3, 3, 2}},
        };
        for (int s = 0; s < shapes.length; s++) {
            int[] a = shapes[s][0];
            int[] b = shapes[s][1];
            assertGradients("...ij,...jk->...ik " + Arrays.toString(a) + " x " + Arrays.toString(b),
                    in -> Ein.einsumNumpy("...ij,...jk->...ik", in.get(0), in.get(1)),
                    input(60 + s, a), input(70 + s, b));
        }
    }

    @Test
    void implicitOutputShapeIsSortedSingleLetters() {
        Tensor x = input(80, 2, 3);
        Tensor y = input(81, 3, 4);
        assertShape("ij,jk", Ein.einsumNumpy("ij,jk", x, y), 2, 4);
    }

    private record EinsumCase(String pattern, boolean numpy, int[]... shapes) {
    }

    @Test
    void einsumPatternZoo() {
        List<EinsumCase> cases = List.of(
                new EinsumCase("i,i->", true, new int[] {4}, new int[] {4}),
                new EinsumCase("i,j->ij", true, new int[] {3}, new int[] {4}),
                new EinsumCase("ij->ji", true, new int[] {3, 4}),
                new EinsumCase("ij->", true, new int[] {3, 4}),
                new EinsumCase("iij->ij", true, new int[] {3, 3, 2}),
                new EinsumCase("iji->j", true, new int[] {3, 2, 3}),
                new EinsumCase("ii,i->i", true, new int[] {3, 3}, new int[] {3}),
                new EinsumCase("ij,ij->ij", true, new int[] {3, 4}, new int[] {3, 4}),
                new EinsumCase("ijk,ikl->ijl", true, new int[] {2, 3, 2}, new int[] {2, 2, 4}),
                new EinsumCase("i,i,i->i", true, new int[] {4}, new int[] {4}, new int[] {4}),
                new EinsumCase("ij,jk,kl,lm->im", true, new int[] {2, 3}, new int[] {3, 2}, new int[] {2, 3}, new int[] {3, 2}),
                new EinsumCase("...,...->...", true, new int[] {2, 3}, new int[] {1, 3}),
                new EinsumCase("a...,a...->...", true, new int[] {2, 3}, new int[] {2, 3}),
                new EinsumCase("ij,i->j", true, new int[] {3, 4}, new int[] {3}),
                new EinsumCase("iij,jk->ik", true, new int[] {3, 3, 2}, new int[] {2, 4}),
                new EinsumCase("ii,ii->i", true, new int[] {3, 3}, new int[] {3, 3}),
                new EinsumCase("ij,jk->ki", true, new int[] {2, 3}, new int[] {3, 4}),
                new EinsumCase("ij,kj->", true, new int[] {2, 3}, new int[] {4, 3}),
                new EinsumCase("i j, i j ->", false, new int[] {3, 4}, new int[] {3, 4}),
                new EinsumCase("i, j -> i j", false, new int[] {3}, new int[] {4}),
                new EinsumCase("b i j, b j k -> b i k", false, new int[] {1, 2, 3}, new int[] {1, 3, 2}),
                new EinsumCase("i j, j ->", false, new int[] {3, 4}, new int[] {4}),
                new EinsumCase("a b c, c b -> a", false, new int[] {2, 3, 4}, new int[] {4, 3}),
                new EinsumCase("i i j, j i -> i", false, new int[] {3, 3, 2}, new int[] {2, 3}),
                new EinsumCase("a () c, c -> a", false, new int[] {2, 1, 4}, new int[] {4}),
                new EinsumCase("... i, ... i -> ...", false, new int[] {2, 3, 4}, new int[] {3, 4}),
                new EinsumCase("b h i d, b h j d, b h j e -> b h i e", false,
                        new int[] {1, 2, 2, 3}, new int[] {1, 2, 3, 3}, new int[] {1, 2, 3, 2}),
                new EinsumCase("i i i ->", false, new int[] {3, 3, 3}),
                new EinsumCase("i i i -> i", false, new int[] {3, 3, 3}),
                new EinsumCase("i j, i j, i j -> i", false, new int[] {2, 3}, new int[] {2, 3}, new int[] {2, 3}));
        int seed = 300;
        for (EinsumCase c : cases) {
            Tensor[] inputs = new Tensor[c.shapes().length];
            for (int k = 0; k < inputs.length; k++) {
                inputs[k] = input(seed++, c.shapes()[k]);
            }
            assertGradients((c.numpy() ? "einsumNumpy " : "einsum ") + c.pattern(),
                    in -> c.numpy() ? Ein.einsumNumpy(c.pattern(), in.toArray(Tensor[]::new))
                            : Ein.einsum(c.pattern(), in.toArray(Tensor[]::new)),
                    inputs);
        }
    }

    // ------------------------------------------------------------------ pack and unpack

    @Test
    void packGradients() {
        SplittableRandom random = new SplittableRandom(212);
        for (int t = 0; t < TRIALS; t++) {
            int b = length(random, 1, 2);
            int c = length(random, 2, 2);
            int h = length(random, 1, 2);
            int w = length(random, 1, 3);
            int n = length(random, 1, 3);
            assertGradients("pack b * c of [b,h,w,c], [b,c], [b,n,c]",
                    in -> Ein.pack("b * c", in.get(0), in.get(1), in.get(2)).tensor().sin(),
                    input(t, b, h, w, c), input(t + 10, b, c), input(t + 20, b, n, c));
        }
    }

    @Test
    void unpackGradientsOfAWeightedSum() {
        SplittableRandom random = new SplittableRandom(213);
        for (int t = 0; t < TRIALS; t++) {
            int b = length(random, 1, 2);
            int c = length(random, 2, 2);
            List<int[]> shapes = List.of(new int[] {2, 2}, new int[] {}, new int[] {length(random, 1, 3)});
            int total = 4 + 1 + shapes.get(2)[0];
            double[] weights = {1.0, -2.0, 0.5};
            assertGradients("unpack b * c into [2,2], [], [n], weighted sum of parts",
                    in -> {
                        List<Tensor> parts = Ein.unpack(in.get(0), shapes, "b * c");
                        Tensor sum = parts.get(0).sin().sum().mul(weights[0]);
                        for (int p = 1; p < parts.size(); p++) {
                            sum = sum.add(parts.get(p).exp().sum().mul(weights[p]));
                        }
                        return sum;
                    }, input(t, b, total, c));
            assertGradients("unpack with an inferred -1",
                    in -> {
                        List<Tensor> parts = Ein.unpack(in.get(0), List.of(new int[] {1}, new int[] {-1}), "b * c");
                        return parts.get(0).sum().mul(3.0).add(parts.get(1).mul(parts.get(1)).sum().mul(-1.5));
                    }, input(t + 10, b, total, c));
        }
    }

    @Test
    void packThenUnpackRoundTripsGradients() {
        Tensor a = input(90, 2, 3, 4);
        Tensor b = input(91, 2, 4);
        Packed packed = Ein.pack("b * c", a, b);
        List<Tensor> parts = Ein.unpack(packed.tensor(), packed.packedShapes(), "b * c");
        Tensor loss = parts.get(0).mul(2.0).sum().add(parts.get(1).mul(-3.0).sum());
        List<Tensor> gradients = Autograd.grad(loss, List.of(a, b));
        double[] twos = new double[24];
        Arrays.fill(twos, 2.0);
        double[] minusThrees = new double[8];
        Arrays.fill(minusThrees, -3.0);
        assertThat(gradients.get(0).toDoubleArray()).containsExactly(twos);
        assertThat(gradients.get(1).toDoubleArray()).containsExactly(minusThrees);
    }
}
