package dev.ein4j.reference;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BufferView;
import dev.ein4j.backend.CounterRandom;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import java.util.List;

/**
 * The semantic definition of every compute primitive: plain loops over multi-indices, computing
 * in double and rounding to the output type on each write. It is slow on purpose (one element at a
 * time through {@link View#bufferIndex}) and is the oracle that other backends are tested against.
 */
public final class ReferenceBackend implements Backend {

    /** The name of this backend. */
    public static final String NAME = "reference";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public DeviceBuffer allocate(DType dtype, int size) {
        return new ReferenceBuffer(dtype, size);
    }

    @Override
    public void write(DeviceBuffer target, double[] data) {
        ReferenceBuffer buffer = own(target);
        for (int i = 0; i < data.length; i++) {
            buffer.set(i, data[i]);
        }
    }

    @Override
    public double[] read(DeviceBuffer source) {
        return own(source).data.clone();
    }

    @Override
    public boolean requiresRelease() {
        return false;
    }

    @Override
    public void release(DeviceBuffer buffer) {
        // Java arrays are reclaimed by the garbage collector.
    }

    @Override
    public void elementwise(Op op, DeviceBuffer output, List<BufferView> inputs) {
        ReferenceBuffer out = own(output);
        int[] shape = inputs.get(0).view().shape();
        int[] index = new int[shape.length];
        double[] operands = new double[inputs.size()];
        for (int flat = 0; flat < out.size(); flat++) {
            for (int k = 0; k < operands.length; k++) {
                operands[k] = value(inputs.get(k), index);
            }
            out.set(flat, apply(op, operands));
            increment(index, shape);
        }
    }

    private static double apply(Op op, double[] x) {
        return switch (op) {
            case EXP -> Math.exp(x[0]);
            case LOG -> Math.log(x[0]);
            case SQRT -> Math.sqrt(x[0]);
            case RECIPROCAL -> 1.0 / x[0];
            case SIN -> Math.sin(x[0]);
            case CAST, CONTIGUOUS -> x[0];
            case ADD -> x[0] + x[1];
            case MUL -> x[0] * x[1];
            case MAX -> Double.isNaN(x[0]) || Double.isNaN(x[1]) ? Double.NaN : Math.max(x[0], x[1]);
            case CMPLT -> x[0] < x[1] ? 1.0 : 0.0;
            case CMPEQ -> x[0] == x[1] ? 1.0 : 0.0;
            case WHERE -> x[0] != 0.0 ? x[1] : x[2];
            default -> throw new EinopsException("reference backend: " + op + " is not an elementwise primitive");
        };
    }

    @Override
    public void reduce(Op op, DeviceBuffer output, BufferView input, int[] axes) {
        ReferenceBuffer out = own(output);
        double initial = switch (op) {
            case SUM -> 0.0;
            case REDUCE_MAX -> Double.NEGATIVE_INFINITY;
            case PROD -> 1.0;
            default -> throw new EinopsException("reference backend: " + op + " is not a reduction");
        };
        double[] accumulators = new double[out.size()];
        java.util.Arrays.fill(accumulators, initial);
        int[] shape = input.view().shape();
        int[] outputStrides = reducedStrides(shape, axes);
        int[] index = new int[shape.length];
        int count = input.view().size();
        for (int flat = 0; flat < count; flat++) {
            int target = dot(index, outputStrides);
            double x = value(input, index);
            double acc = accumulators[target];
            accumulators[target] = switch (op) {
                case SUM -> acc + x;
                case PROD -> acc * x;
                default -> Double.isNaN(acc) || Double.isNaN(x) ? Double.NaN : Math.max(acc, x);
            };
            increment(index, shape);
        }
        for (int i = 0; i < accumulators.length; i++) {
            out.set(i, accumulators[i]);
        }
    }

    @Override
    public void contract(DeviceBuffer output, BufferView left, BufferView right, int[] axes) {
        ReferenceBuffer out = own(output);
        double[] accumulators = new double[out.size()];
        int[] shape = left.view().shape();
        int[] outputStrides = reducedStrides(shape, axes);
        int[] index = new int[shape.length];
        int count = left.view().size();
        for (int flat = 0; flat < count; flat++) {
            accumulators[dot(index, outputStrides)] += value(left, index) * value(right, index);
            increment(index, shape);
        }
        for (int i = 0; i < accumulators.length; i++) {
            out.set(i, accumulators[i]);
        }
    }

    @Override
    public void fill(DeviceBuffer output, double value) {
        ReferenceBuffer out = own(output);
        for (int i = 0; i < out.size(); i++) {
            out.set(i, value);
        }
    }

    @Override
    public void iota(DeviceBuffer output) {
        ReferenceBuffer out = own(output);
        for (int i = 0; i < out.size(); i++) {
            out.set(i, i);
        }
    }

    @Override
    public void random(DeviceBuffer output, long seed) {
        ReferenceBuffer out = own(output);
        boolean single = out.dtype() == DType.FLOAT32;
        for (int i = 0; i < out.size(); i++) {
            out.set(i, single ? CounterRandom.uniformFloat(seed, i) : CounterRandom.uniformDouble(seed, i));
        }
    }

    // ------------------------------------------------------------------ helpers

    private static double value(BufferView operand, int[] index) {
        int position = operand.view().bufferIndex(index);
        return position < 0 ? operand.view().padValue() : own(operand.buffer()).data[position];
    }

    /** Row-major strides of the output, with 0 on the reduced axes so that they collapse. */
    private static int[] reducedStrides(int[] shape, int[] axes) {
        int[] reduced = shape.clone();
        for (int axis : axes) {
            reduced[axis] = 1;
        }
        int[] strides = View.contiguousStrides(reduced);
        for (int axis : axes) {
            strides[axis] = 0;
        }
        return strides;
    }

    private static int dot(int[] index, int[] strides) {
        int sum = 0;
        for (int k = 0; k < index.length; k++) {
            sum += index[k] * strides[k];
        }
        return sum;
    }

    /** Advances a row-major multi-index by one element. */
    private static void increment(int[] index, int[] shape) {
        for (int k = shape.length - 1; k >= 0; k--) {
            if (++index[k] < shape[k]) {
                return;
            }
            index[k] = 0;
        }
    }

    private static ReferenceBuffer own(DeviceBuffer buffer) {
        if (buffer instanceof ReferenceBuffer reference) {
            return reference;
        }
        throw new EinopsException("reference backend was handed a buffer of another backend: " + buffer);
    }
}
