package dev.ein4j.tensor;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.SeedArgument;
import dev.ein4j.runtime.Lifetimes;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.kernel.HostData;
import dev.ein4j.runtime.Realizer;
import java.util.Arrays;
import java.util.List;

/** Tensors made from data, constants, ranges and random draws. */
final class Creation {

    private Creation() {
    }

    static Tensor fromHost(HostData data, int[] shape) {
        long size = Arguments.shape(shape, "of");
        if (data.length() != size) {
            throw new ShapeException("of", List.of(Shapes.toLong(shape)), "the shape " + Arrays.toString(shape) + " holds "
                    + size + " element" + (size == 1 ? "" : "s") + " but " + data.length() + " were given");
        }
        return Tensor.wrap(Realizer.input(data, shape, false));
    }

    static Tensor fromFloats(float[] data, int[] shape) {
        return fromHost(new HostData.Float32(Arguments.notNull(data, "data").clone()), shape);
    }

    static Tensor fromDoubles(double[] data, DType dtype, int[] shape) {
        Arguments.notNull(data, "data");
        Arguments.notNull(dtype, "dtype");
        return fromHost(dtype == DType.FLOAT64 ? new HostData.Float64(data.clone()) : HostData.fromDoubles(dtype, data), shape);
    }

    static Tensor fromInts(int[] data, int[] shape) {
        return fromHost(new HostData.Int32(Arguments.notNull(data, "data").clone()), shape);
    }

    static Tensor fromBooleans(boolean[] data, int[] shape) {
        Arguments.notNull(data, "data");
        byte[] bytes = new byte[data.length];
        for (int i = 0; i < data.length; i++) {
            bytes[i] = data[i] ? (byte) 1 : (byte) 0;
        }
        return fromHost(new HostData.Bool(bytes), shape);
    }

    /** One value over a shape: a CONST node, one element however large the shape. */
    static Tensor full(double value, DType dtype, int[] shape) {
        Arguments.notNull(dtype, "dtype");
        Arguments.shape(shape, "full");
        return Ops.constant(value, dtype, shape.clone());
    }

    /** start, start + step, ... below end (above end for a negative step), as numpy's arange. */
    static Tensor arange(DType dtype, long start, long end, long step) {
        Arguments.notNull(dtype, "dtype");
        if (step == 0) {
            throw new EinopsException("arange: step must not be 0");
        }
        long count = Math.max(0, step > 0 ? Math.floorDiv(end - start + step - 1, step) : Math.floorDiv(start - end - step - 1, -step));
        if (count > Integer.MAX_VALUE) {
            throw new ShapeException("arange", List.of(new long[] {count}), "arange of " + count + " elements is longer than a dimension can be");
        }
        Tensor index = Tensor.wrap(Lifetimes.adopt(new Node(Op.IOTA, DType.INT32, new int[] {(int) count}, null, false)));
        if (start == 0 && step == 1) {
            return Ops.cast(index, dtype);
        }
        DType work = dtype.isFloating() ? DType.FLOAT64 : DType.INT32;
        return Ops.cast(index.cast(work).mul((double) step).add((double) start), dtype);
    }

    /** steps values from start to end inclusive, evenly spaced (torch.linspace). */
    static Tensor linspace(double start, double end, int steps, DType dtype) {
        Arguments.notNull(dtype, "dtype");
        if (steps < 0) {
            throw new ShapeException("linspace", List.of(new long[] {steps}), "linspace needs a non-negative number of steps, got " + steps);
        }
        if (steps == 1) {
            return full(start, dtype, new int[] {1});
        }
        double delta = (end - start) / Math.max(1, steps - 1);
        Tensor index = arange(DType.FLOAT64, 0, steps, 1);
        return index.mul(delta).add(start).cast(dtype);
    }

    static Tensor eye(int length, DType dtype) {
        Arguments.notNull(dtype, "dtype");
        Arguments.shape(new int[] {length}, "eye");
        Tensor index = Tensor.wrap(Lifetimes.adopt(new Node(Op.IOTA, DType.INT32, new int[] {length}, null, false)));
        return index.reshape(length, 1).eq(index.reshape(1, length)).cast(dtype);
    }

    /**
     * Marks a random tensor the user holds to be computed once, by the first realization that reads
     * it, and kept: every expression reading it later sees the same values without generating them
     * again (PyTorch's randn makes its values once).
     */
    static Tensor kept(Tensor random) {
        Lifetimes.keepOnFirstUse(random.node());
        return random;
    }

    /** Uniform values in [0, 1): one draw of the generator, a lazy RAND node (fused into its reader: dropout masks). */
    static Tensor rand(Generator generator, DType dtype, int[] shape) {
        Arguments.notNull(generator, "generator");
        Arguments.notNull(dtype, "dtype");
        Arguments.shape(shape, "rand");
        if (!dtype.isFloating()) {
            throw new EinopsException("rand makes float32 or float64 values, not " + dtype.numpyName() + " (use randint)");
        }
        return Tensor.wrap(Lifetimes.adopt(new Node(Op.RAND, dtype, shape.clone(), new SeedArgument(generator.nextKey()), false)));
    }

    /**
     * Standard normal values by the Box–Muller transform of two float64 uniform draws:
     * √(−2 ln(1 − u₁)) · cos(2π u₂), then rounded to the type.
     */
    static Tensor randn(Generator generator, DType dtype, int[] shape) {
        Tensor u1 = rand(generator, DType.FLOAT64, shape);
        Tensor u2 = rand(generator, DType.FLOAT64, shape);
        Tensor radius = u1.neg().add(1.0).log().mul(-2.0).sqrt();
        return radius.mul(u2.mul(2 * Math.PI).cos()).cast(dtype);
    }

    /** Integers uniform in [low, high), int32. */
    static Tensor randint(Generator generator, int low, int high, int[] shape) {
        Arguments.notNull(generator, "generator");
        Arguments.shape(shape, "randint");
        if (high <= low) {
            throw new EinopsException("randint needs low < high, got [" + low + ", " + high + ")");
        }
        long span = (long) high - low;
        Tensor u = rand(generator, DType.FLOAT64, shape);
        Tensor offset = u.mul((double) span).minimum(Tensor.scalar(span - 1, DType.FLOAT64));
        return offset.cast(DType.INT32).add(Tensor.scalar(low, DType.INT32));
    }
}
