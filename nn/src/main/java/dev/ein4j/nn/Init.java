package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Weight initializers, as PyTorch's {@code nn.init}: float32 tensors drawn from a generator
 * (counter-based, so a seed gives the same weights on every backend). The fans of a weight
 * [out, in, *kernel] are fan_in = in·Πkernel and fan_out = out·Πkernel.
 *
 * <pre>{@code
 * Tensor w = Init.kaimingUniform(generator, Math.sqrt(5), 128, 784);   // nn.Linear's default
 * Tensor k = Init.xavierNormal(generator, 1.0, 64, 32, 3, 3);
 * Linear empty = Init.withoutInitialization(() -> new Linear(4096, 4096));   // zeros, nothing drawn
 * }</pre>
 */
public final class Init {

    /** Set on a thread while it builds modules whose values are about to be overwritten. */
    private static final ThreadLocal<Boolean> SKIPPING = ThreadLocal.withInitial(() -> false);

    private Init() {
    }

    /**
     * Builds modules without drawing their initial values: while the construction runs on this
     * thread, {@link #uniform} and {@link #normal} (and so every initializer here) return zeros of
     * the requested shape without consuming the generator. For modules whose parameters are loaded
     * next (a checkpoint), where drawing millions of random numbers only to overwrite them would
     * cost seconds; as Hugging Face's {@code no_init_weights}. Nested calls keep skipping.
     *
     * @param construction builds the modules
     * @param <T> what it builds
     * @return what it built
     */
    public static <T> T withoutInitialization(Supplier<T> construction) {
        Checks.notNull(construction, "construction");
        boolean outer = SKIPPING.get();
        SKIPPING.set(true);
        try {
            return construction.get();
        } finally {
            SKIPPING.set(outer);
        }
    }

    /**
     * @param generator the random stream
     * @param low the smallest value
     * @param high the bound above every value
     * @param shape the shape
     * @return values uniform in [low, high)
     */
    public static Tensor uniform(Generator generator, double low, double high, int... shape) {
        Checks.notNull(generator, "generator");
        Checks.notNull(shape, "shape");
        if (!(low <= high) || !Double.isFinite(high - low)) {
            throw new EinopsException("uniform needs finite low <= high, got " + low + ", " + high);
        }
        if (SKIPPING.get()) {
            return Tensor.zeros(shape);
        }
        return Tensor.rand(generator, DType.FLOAT32, shape).mul(high - low).add(low).realize();
    }

    /**
     * @param generator the random stream
     * @param mean the mean
     * @param std the standard deviation, not negative
     * @param shape the shape
     * @return normal values
     */
    public static Tensor normal(Generator generator, double mean, double std, int... shape) {
        Checks.notNull(generator, "generator");
        Checks.notNull(shape, "shape");
        if (!(std >= 0) || !Double.isFinite(mean)) {
            throw new EinopsException("normal needs a finite mean and std >= 0, got " + mean + ", " + std);
        }
        if (SKIPPING.get()) {
            return Tensor.zeros(shape);
        }
        return Tensor.randn(generator, DType.FLOAT32, shape).mul(std).add(mean).realize();
    }

    /**
     * Kaiming (He) uniform for leaky-ReLU layers, fan-in mode: U(−b, b) with
     * b = √3 · √(2 / (1 + a²)) / √fan_in. With a = √5 this is PyTorch's default for linear and
     * convolution weights, b = 1/√fan_in.
     *
     * @param generator the random stream
     * @param negativeSlope a, the negative slope of the leaky ReLU that follows (0 for ReLU)
     * @param shape the weight's shape [out, in, *kernel]
     * @return the weights
     */
    public static Tensor kaimingUniform(Generator generator, double negativeSlope, int... shape) {
        double bound = Math.sqrt(3.0) * leakyReluGain(negativeSlope) / Math.sqrt(fanIn(shape));
        return uniform(generator, -bound, bound, shape);
    }

    /**
     * Kaiming (He) normal, fan-in mode: N(0, (√(2 / (1 + a²)) / √fan_in)²).
     *
     * @param generator the random stream
     * @param negativeSlope a, the negative slope of the leaky ReLU that follows (0 for ReLU)
     * @param shape the weight's shape [out, in, *kernel]
     * @return the weights
     */
    public static Tensor kaimingNormal(Generator generator, double negativeSlope, int... shape) {
        return normal(generator, 0.0, leakyReluGain(negativeSlope) / Math.sqrt(fanIn(shape)), shape);
    }

    /**
     * Xavier (Glorot) uniform: U(−b, b) with b = gain · √(6 / (fan_in + fan_out)).
     *
     * @param generator the random stream
     * @param gain the scale (1 for linear or sigmoid layers)
     * @param shape the weight's shape [out, in, *kernel]
     * @return the weights
     */
    public static Tensor xavierUniform(Generator generator, double gain, int... shape) {
        double bound = gain * Math.sqrt(6.0 / (fanIn(shape) + fanOut(shape)));
        return uniform(generator, -bound, bound, shape);
    }

    /**
     * Xavier (Glorot) normal: N(0, (gain · √(2 / (fan_in + fan_out)))²).
     *
     * @param generator the random stream
     * @param gain the scale
     * @param shape the weight's shape [out, in, *kernel]
     * @return the weights
     */
    public static Tensor xavierNormal(Generator generator, double gain, int... shape) {
        return normal(generator, 0.0, gain * Math.sqrt(2.0 / (fanIn(shape) + fanOut(shape))), shape);
    }

    /**
     * @param shape a weight shape [out, in, *kernel] (at least 2 dimensions)
     * @return in · Πkernel
     */
    public static long fanIn(int... shape) {
        checkFans(shape);
        return shape[1] * receptiveField(shape);
    }

    /**
     * @param shape a weight shape [out, in, *kernel] (at least 2 dimensions)
     * @return out · Πkernel
     */
    public static long fanOut(int... shape) {
        checkFans(shape);
        return shape[0] * receptiveField(shape);
    }

    private static long receptiveField(int[] shape) {
        return Arrays.stream(shape, 2, shape.length).asLongStream().reduce(1, (a, b) -> a * b);
    }

    private static void checkFans(int[] shape) {
        Checks.notNull(shape, "shape");
        if (shape.length < 2 || Arrays.stream(shape).anyMatch(n -> n <= 0)) {
            throw new EinopsException("fans need a weight shape of at least 2 positive dimensions, got "
                    + Arrays.toString(shape));
        }
    }

    private static double leakyReluGain(double negativeSlope) {
        return Math.sqrt(2.0 / (1 + negativeSlope * negativeSlope));
    }
}
