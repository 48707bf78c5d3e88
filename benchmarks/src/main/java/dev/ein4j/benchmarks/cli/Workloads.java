package dev.ein4j.benchmarks.cli;

import dev.ein4j.autograd.Autograd;
import dev.ein4j.backend.Backends;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.optim.Adam;
import dev.ein4j.nn.optim.Optimizer;
import dev.ein4j.nn.optim.Sgd;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The workloads of {@code ein4j-bench}, float32 throughout. Each one makes and realizes its inputs
 * untimed; a timed run builds the graph and realizes it (then synchronizes the backend).
 */
final class Workloads {

    /**
     * @param name the workload's name
     * @param unit what its figure measures
     * @param work operations, bytes or calls per run (see {@link Unit})
     * @param prepare makes the inputs and returns the trial
     */
    record Spec(String name, Unit unit, double work, Supplier<Trial> prepare) {
    }

    static final String CONV_PATTERN = "b c (h + kh) (w + kw), o c kh kw -> b o h w";

    /** A sink for values the timed loops compute, so that the JIT cannot drop them. */
    static volatile long sink;

    private Workloads() {
    }

    /**
     * @param name a name from {@link BenchMain#WORKLOADS}
     * @return its definition
     */
    static Spec spec(String name) {
        return switch (name) {
            case "matmul-256" -> matmul(256);
            case "matmul-512" -> matmul(512);
            case "matmul-1024" -> matmul(1024);
            case "matmul-2048" -> matmul(2048);
            case "attention-scores" -> attention(name, "b h i d, b h j d -> b h i j", new int[] {8, 8, 256, 64},
                    new int[] {8, 8, 256, 64});
            case "attention-values" -> attention(name, "b h i j, b h j d -> b h i d", new int[] {8, 8, 256, 256},
                    new int[] {8, 8, 256, 64});
            case "transpose" -> transpose();
            case "rearrange-overhead" -> rearrangeOverhead();
            case "softmax" -> softmax();
            case "mlp-step" -> mlpStep(name, false);
            case "mlp-step-adam" -> mlpStep(name, true);
            case "conv2d-fwd-c64" -> conv(name, 32, 64, 32, 64, 3, 1, false);
            case "conv2d-fwd-bwd-c64" -> conv(name, 32, 64, 32, 64, 3, 1, true);
            case "conv2d-fwd-c3" -> conv(name, 64, 3, 32, 32, 5, 0, false);
            case "conv2d-fwd-bwd-c3" -> conv(name, 64, 3, 32, 32, 5, 0, true);
            case "cnn-step" -> cnnStep();
            case "resnet18-fwd", "vit-tiny-fwd" -> ModelWorkloads.spec(name);
            case "gpt2-decode" -> DecodeWorkload.spec();
            default -> throw new IllegalArgumentException("unknown workload '" + name + "'");
        };
    }

    static void synchronize() {
        Backends.current().synchronize();
    }

    private static Tensor input(Generator generator, int... shape) {
        Tensor t = Tensor.randn(generator, shape).realize();
        synchronize();
        return t;
    }

    // ------------------------------------------------------------------ contractions

    private static Spec matmul(int n) {
        return new Spec("matmul-" + n, Unit.GFLOPS, 2.0 * n * n * n, () -> {
            Generator generator = new Generator(1);
            Tensor a = input(generator, n, n);
            Tensor b = input(generator, n, n);
            return einsumTrial("i j, j k -> i k", a, b);
        });
    }

    private static Spec attention(String name, String pattern, int[] left, int[] right) {
        // b h i j d with i = j = 256: 2·b·h·i·j·d either way
        double flops = 2.0 * 8 * 8 * 256 * 256 * 64;
        return new Spec(name, Unit.GFLOPS, flops, () -> {
            Generator generator = new Generator(2);
            Tensor a = input(generator, left);
            Tensor b = input(generator, right);
            return einsumTrial(pattern, a, b);
        });
    }

    private static Trial einsumTrial(String pattern, Tensor a, Tensor b) {
        return new Trial() {
            @Override
            public void run() {
                Ein.einsum(pattern, a, b).realize();
                synchronize();
            }

            @Override
            public String explain() {
                return Ein.einsum(pattern, a, b).explain();
            }
        };
    }

    // ------------------------------------------------------------------ memory-bound

    private static Spec transpose() {
        int[] shape = {64, 64, 128, 128};
        double elements = 64.0 * 64 * 128 * 128;
        return new Spec("transpose", Unit.GBPS, 2 * 4 * elements, () -> {
            Tensor x = input(new Generator(3), shape);
            return new Trial() {
                @Override
                public void run() {
                    x.rearrange("b c h w -> b h w c").contiguous().realize();
                    synchronize();
                }

                @Override
                public String explain() {
                    return x.rearrange("b c h w -> b h w c").contiguous().explain();
                }
            };
        });
    }

    private static Spec softmax() {
        double elements = 8192.0 * 4096;
        return new Spec("softmax", Unit.GBPS, 2 * 4 * elements, () -> {
            Tensor x = input(new Generator(4), 8192, 4096);
            return new Trial() {
                @Override
                public void run() {
                    x.softmax(1).realize();
                    synchronize();
                }

                @Override
                public String explain() {
                    return x.softmax(1).explain();
                }
            };
        });
    }

    static final int REARRANGE_CALLS = 100_000;

    private static Spec rearrangeOverhead() {
        return new Spec("rearrange-overhead", Unit.US_PER_CALL, REARRANGE_CALLS, () -> {
            Tensor x = input(new Generator(5), 2, 3, 4, 4);
            return new Trial() {
                @Override
                public void run() {
                    long total = 0;
                    for (int i = 0; i < REARRANGE_CALLS; i++) {
                        total += x.rearrange("b c h w -> b h w c").length(3);
                    }
                    sink += total;
                }

                @Override
                public String explain() {
                    return "one run = " + REARRANGE_CALLS + " calls of x.rearrange(\"b c h w -> b h w c\") on a realized "
                            + "[2, 3, 4, 4], nothing realized; realizing one would run:\n"
                            + x.rearrange("b c h w -> b h w c").explain();
                }
            };
        });
    }

    // ------------------------------------------------------------------ convolution

    private static Spec conv(String name, int n, int c, int size, int o, int k, int pad, boolean backward) {
        int out = size + 2 * pad - k + 1;
        double forward = 2.0 * n * o * c * k * k * out * out;
        return new Spec(name, Unit.GFLOPS, backward ? 3 * forward : forward, () -> {
            Generator generator = new Generator(6);
            Tensor x = input(generator, n, c, size, size);
            Tensor w = Tensor.randn(generator, o, c, k, k).mul(1.0 / Math.sqrt(c * k * k)).realize();
            synchronize();
            if (!backward) {
                return new Trial() {
                    @Override
                    public void run() {
                        conv2d(x, w, pad).realize();
                        synchronize();
                    }

                    @Override
                    public String explain() {
                        return conv2d(x, w, pad).explain();
                    }
                };
            }
            Tensor xg = x.requireGrad();
            Tensor wg = w.requireGrad();
            return new Trial() {
                @Override
                public void run() {
                    Tensor y = conv2d(xg, wg, pad);
                    List<Tensor> grads = Autograd.grad(y.sum(), List.of(xg, wg));
                    // y too: the gradients of a sum do not need y's values, and the figure counts the forward
                    Tensor.realizeAll(y, grads.get(0), grads.get(1));
                    synchronize();
                }

                @Override
                public String explain() {
                    Tensor y = conv2d(xg, wg, pad);
                    List<Tensor> grads = Autograd.grad(y.sum(), List.of(xg, wg));
                    return "forward y:\n" + y.explain() + "\ngradient of x:\n" + grads.get(0).explain()
                            + "\ngradient of w:\n" + grads.get(1).explain();
                }
            };
        });
    }

    /** A 2-D convolution (cross-correlation, stride 1) as one pattern, after zero padding. */
    static Tensor conv2d(Tensor x, Tensor w, int pad) {
        Tensor padded = pad == 0 ? x : x.pad(new int[] {0, 0, pad, pad}, new int[] {0, 0, pad, pad}, 0);
        return Ein.einsum(CONV_PATTERN, padded, w);
    }

    // ------------------------------------------------------------------ training steps

    private static Tensor parameter(Generator generator, double scale, int... shape) {
        return Tensor.randn(generator, shape).mul(scale).requireGrad();
    }

    /**
     * A training loop's state: the parameters, updated in place by the optimizer (as PyTorch's
     * {@code p -= lr * p.grad}), and the last loss, read every step as PyTorch's {@code loss.item()}.
     * The runner closes each step's tensors when the step ends.
     */
    private abstract static class Training implements Trial {
        Tensor[] parameters;
        Optimizer optimizer;
        double lastLoss = Double.NaN;

        abstract Tensor loss(Tensor[] p);

        Training optimize(Tensor[] trained, java.util.function.Function<List<Tensor>, Optimizer> make) {
            this.parameters = trained;
            this.optimizer = make.apply(List.of(trained));
            return this;
        }

        @Override
        public void run() {
            optimizer.zeroGrad();
            Tensor loss = loss(parameters);
            loss.backward();
            optimizer.step();
            lastLoss = loss.item();
            synchronize();
        }

        @Override
        public String explain() {
            // backward() realizes the loss and every gradient in one pass; the optimizer's step is
            // then one elementwise kernel per parameter, in one realization. Each list below is
            // scheduled on its own, so the forward kernels show again under each gradient.
            Tensor l = loss(parameters);
            List<Tensor> grads = Autograd.grad(l, List.of(parameters));
            StringBuilder text = new StringBuilder("forward (the loss):\n").append(l.explain());
            for (int i = 0; i < parameters.length; i++) {
                text.append("\ngradient of parameter ").append(i).append(' ')
                        .append(java.util.Arrays.toString(parameters[i].shape())).append(":\n")
                        .append(grads.get(i).explain());
            }
            return text.append("\nthen the optimizer: one elementwise kernel per parameter").toString();
        }

        @Override
        public String summary() {
            return Double.isNaN(lastLoss) ? null : "last loss " + lastLoss;
        }
    }

    /** 784-256-10, batch 128, cross entropy; SGD (lr 0.01) or Adam (lr 1e-3), PyTorch's defaults otherwise. */
    private static Spec mlpStep(String name, boolean adam) {
        return new Spec(name, Unit.MS_PER_STEP, 1, () -> {
            Generator generator = new Generator(7);
            Tensor x = input(generator, 128, 784);
            Tensor labels = Tensor.randint(generator, 0, 10, 128).realize();
            Training training = new Training() {
                @Override
                Tensor loss(Tensor[] p) {
                    Tensor h = Functional.linear(x, p[0], p[1]).relu();
                    Tensor logits = Functional.linear(h, p[2], p[3]);
                    return Functional.crossEntropy(logits, labels);
                }
            };
            Tensor[] trained = {
                parameter(generator, 1 / Math.sqrt(784), 256, 784), parameter(generator, 0.01, 256),
                parameter(generator, 1 / Math.sqrt(256), 10, 256), parameter(generator, 0.01, 10)};
            training.optimize(trained, p -> adam ? new Adam(p, 1e-3) : new Sgd(p, 0.01));
            synchronize();
            return training;
        });
    }

    private static Spec cnnStep() {
        return new Spec("cnn-step", Unit.MS_PER_STEP, 1, () -> {
            Generator generator = new Generator(8);
            Tensor x = input(generator, 64, 1, 28, 28);
            Tensor labels = Tensor.randint(generator, 0, 10, 64).realize();
            Training training = new Training() {
                @Override
                Tensor loss(Tensor[] p) {
                    Tensor h = conv2d(x, p[0], 0).add(p[1].rearrange("o -> o 1 1")).relu();          // [64, 32, 26, 26]
                    h = conv2d(h, p[2], 0).add(p[3].rearrange("o -> o 1 1")).relu();                 // [64, 64, 24, 24]
                    h = h.reduce("b c (h 2) (w 2) -> b c h w", "max");                              // [64, 64, 12, 12]
                    h = h.rearrange("b c h w -> b (c h w)");                                        // [64, 9216]
                    h = Functional.linear(h, p[4], p[5]).relu();                                    // [64, 128]
                    Tensor logits = Functional.linear(h, p[6], p[7]);                               // [64, 10]
                    return Functional.crossEntropy(logits, labels);
                }
            };
            List<Tensor> p = new ArrayList<>();
            p.add(parameter(generator, 1 / 3.0, 32, 1, 3, 3));
            p.add(parameter(generator, 0.01, 32));
            p.add(parameter(generator, 1 / Math.sqrt(32 * 9), 64, 32, 3, 3));
            p.add(parameter(generator, 0.01, 64));
            p.add(parameter(generator, 1 / Math.sqrt(9216), 128, 9216));
            p.add(parameter(generator, 0.01, 128));
            p.add(parameter(generator, 1 / Math.sqrt(128), 10, 128));
            p.add(parameter(generator, 0.01, 10));
            training.optimize(p.toArray(Tensor[]::new), trained -> new Sgd(trained, 0.01));
            synchronize();
            return training;
        });
    }
}
