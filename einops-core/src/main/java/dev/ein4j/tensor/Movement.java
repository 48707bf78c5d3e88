package dev.ein4j.tensor;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.PadArgument;
import dev.ein4j.ir.PermuteArgument;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.ShrinkArgument;
import java.util.Arrays;

/** Views: reshape, permute, expand, pad, shrink, flip, and what is built from them. No arithmetic. */
final class Movement {

    private Movement() {
    }

    static Tensor reshape(Tensor x, int[] shape) {
        Arguments.notNull(shape, "shape");
        int[] target = shape.clone();
        int inferred = -1;
        long known = 1;
        for (int k = 0; k < target.length; k++) {
            if (target[k] == -1 && inferred < 0) {
                inferred = k;
            } else if (target[k] < 0) {
                throw Ops.error(x, "reshape", "invalid target shape " + Arrays.toString(shape));
            } else {
                known = Math.multiplyExact(known, target[k]);
            }
        }
        long size = x.size();
        if (inferred >= 0) {
            if (known == 0 || size % known != 0 || size / known > Integer.MAX_VALUE) {
                throw Ops.error(x, "reshape", "cannot reshape " + Arrays.toString(x.shape()) + " to " + Arrays.toString(shape));
            }
            target[inferred] = (int) (size / known);
        } else if (known != size) {
            throw Ops.error(x, "reshape", "cannot reshape " + Arrays.toString(x.shape()) + " (" + size + " elements) to "
                    + Arrays.toString(shape) + " (" + known + " elements)");
        }
        return Arrays.equals(target, x.shape()) ? x : Ops.apply(Op.RESHAPE, x.dtype(), target, null, x);
    }

    static Tensor permute(Tensor x, int[] order) {
        Arguments.notNull(order, "order");
        int rank = x.rank();
        if (order.length != rank) {
            throw Ops.error(x, "permute", "permutation " + Arrays.toString(order) + " has " + order.length
                    + " entries for " + rank + " dimensions");
        }
        boolean[] seen = new boolean[rank];
        int[] normalized = new int[rank];
        boolean identity = true;
        int[] shape = new int[rank];
        for (int k = 0; k < rank; k++) {
            normalized[k] = Ops.axis(x, order[k], "permute");
            if (seen[normalized[k]]) {
                throw Ops.error(x, "permute", "permutation " + Arrays.toString(order) + " repeats dimension " + order[k]);
            }
            seen[normalized[k]] = true;
            identity &= normalized[k] == k;
            shape[k] = x.length(normalized[k]);
        }
        return identity ? x : Ops.apply(Op.PERMUTE, x.dtype(), shape, new PermuteArgument(normalized), x);
    }

    static Tensor transpose(Tensor x, int first, int second) {
        int[] order = Ops.allAxes(x);
        int a = Ops.axis(x, first, "transpose");
        int b = Ops.axis(x, second, "transpose");
        order[a] = b;
        order[b] = a;
        return permute(x, order);
    }

    /** numpy's broadcast_to: leading dimensions added, length-1 dimensions stretched (zero strides). */
    static Tensor expand(Tensor x, int[] shape) {
        Arguments.notNull(shape, "shape");
        int[] target = Ops.broadcastShapes("expand", x.shape(), shape);
        if (!Arrays.equals(target, shape)) {
            throw Ops.error(x, "expand", "cannot expand " + Arrays.toString(x.shape()) + " to " + Arrays.toString(shape));
        }
        return Ops.broadcastTo(x, target);
    }

    static Tensor pad(Tensor x, int[] before, int[] after, double value) {
        Arguments.notNull(before, "before");
        Arguments.notNull(after, "after");
        if (before.length != x.rank() || after.length != x.rank()) {
            throw Ops.error(x, "pad", "pad widths need one entry per dimension: " + x.rank());
        }
        int[] shape = x.shape();
        boolean any = false;
        for (int k = 0; k < shape.length; k++) {
            if (before[k] < 0 || after[k] < 0) {
                throw Ops.error(x, "pad", "pad widths must not be negative: " + Arrays.toString(before) + ", " + Arrays.toString(after));
            }
            long length = (long) shape[k] + before[k] + after[k];
            if (length > Integer.MAX_VALUE) {
                throw Ops.error(x, "pad", "padding makes dimension " + k + " longer than 2^31 - 1");
            }
            shape[k] = (int) length;
            any |= before[k] + after[k] > 0;
        }
        return any ? Ops.apply(Op.PAD, x.dtype(), shape, new PadArgument(before.clone(), after.clone(), value), x) : x;
    }

    static Tensor shrink(Tensor x, int[] starts, int[] ends) {
        Arguments.notNull(starts, "starts");
        Arguments.notNull(ends, "ends");
        int[] shape = x.shape();
        if (starts.length != shape.length || ends.length != shape.length) {
            throw Ops.error(x, "shrink", "bounds need one entry per dimension: " + shape.length);
        }
        int[] lengths = new int[shape.length];
        for (int k = 0; k < shape.length; k++) {
            if (starts[k] < 0 || ends[k] > shape[k] || starts[k] > ends[k]) {
                throw Ops.error(x, "shrink", "bounds [" + starts[k] + ", " + ends[k] + ") do not fit dimension " + k
                        + " of length " + shape[k]);
            }
            lengths[k] = ends[k] - starts[k];
        }
        return Arrays.equals(lengths, shape) ? x
                : Ops.apply(Op.SHRINK, x.dtype(), lengths, new ShrinkArgument(starts.clone(), ends.clone()), x);
    }

    /** Python's {@code x[..., start:end, ...]}: negative indices from the end, out-of-range bounds clamped. */
    static Tensor slice(Tensor x, int axis, int start, int end) {
        int dimension = Ops.axis(x, axis, "slice");
        int length = x.length(dimension);
        int from = Math.max(0, Math.min(length, start < 0 ? start + length : start));
        int to = Math.max(from, Math.min(length, end < 0 ? end + length : end));
        int[] starts = new int[x.rank()];
        int[] ends = x.shape();
        starts[dimension] = from;
        ends[dimension] = to;
        return shrink(x, starts, ends);
    }

    static Tensor flip(Tensor x, int[] axes) {
        int[] sorted = Ops.axes(x, axes, "flip");
        return sorted.length == 0 ? x : Ops.apply(Op.FLIP, x.dtype(), x.shape(), new AxesArgument(sorted), x);
    }

    static Tensor unsqueeze(Tensor x, int axis) {
        int position = axis < 0 ? axis + x.rank() + 1 : axis;
        if (position < 0 || position > x.rank()) {
            throw Ops.error(x, "unsqueeze", "axis " + axis + " out of range for " + x.rank() + " dimensions");
        }
        int[] shape = new int[x.rank() + 1];
        for (int k = 0, j = 0; k < shape.length; k++) {
            shape[k] = k == position ? 1 : x.length(j++);
        }
        return reshape(x, shape);
    }

    static Tensor squeeze(Tensor x, int axis) {
        int dimension = Ops.axis(x, axis, "squeeze");
        if (x.length(dimension) != 1) {
            throw Ops.error(x, "squeeze", "dimension " + axis + " has length " + x.length(dimension) + ", not 1");
        }
        int[] shape = x.shape();
        return reshape(x, java.util.stream.IntStream.range(0, shape.length).filter(k -> k != dimension).map(k -> shape[k]).toArray());
    }

    static Tensor squeezeAll(Tensor x) {
        return reshape(x, Arrays.stream(x.shape()).filter(length -> length != 1).toArray());
    }

    /** Dimensions first..last (inclusive) merged into one. */
    static Tensor flatten(Tensor x, int first, int last) {
        if (x.rank() == 0) {
            return reshape(x, new int[] {1});
        }
        int from = Ops.axis(x, first, "flatten");
        int to = Ops.axis(x, last, "flatten");
        if (from > to) {
            throw Ops.error(x, "flatten", "first axis " + first + " comes after last axis " + last);
        }
        int[] shape = x.shape();
        int[] target = new int[shape.length - (to - from)];
        System.arraycopy(shape, 0, target, 0, from);
        long merged = Shapes.size(Arrays.copyOfRange(shape, from, to + 1));
        if (merged > Integer.MAX_VALUE) {
            throw Ops.error(x, "flatten", "the merged dimension would be longer than 2^31 - 1");
        }
        target[from] = (int) merged;
        System.arraycopy(shape, to + 1, target, from + 1, shape.length - to - 1);
        return reshape(x, target);
    }

    /**
     * Joins tensors along an existing dimension, all other lengths equal; types promote. Built from
     * PAD (with −0, the identity of addition for every value) and ADD, so gradients flow back as SHRINK.
     */
    static Tensor concat(int axis, Tensor[] parts) {
        Arguments.noNulls(parts, "parts");
        if (parts.length == 0) {
            throw new EinopsException("concat needs at least one tensor");
        }
        int dimension = Ops.axis(parts[0], axis, "concat");
        long total = 0;
        dev.ein4j.ir.DType type = parts[0].dtype();
        for (Tensor part : parts) {
            int[] expected = parts[0].shape();
            int[] actual = part.shape();
            expected[dimension] = actual.length == expected.length ? actual[dimension] : -1;
            if (!Arrays.equals(expected, actual)) {
                throw new ShapeException("concat", Arrays.stream(parts).map(p -> Shapes.toLong(p.shape())).toList(),
                        "tensors differ outside dimension " + axis);
            }
            total += part.length(dimension);
            type = type.promote(part.dtype());
        }
        if (total > Integer.MAX_VALUE) {
            throw new ShapeException("concat", Arrays.stream(parts).map(p -> Shapes.toLong(p.shape())).toList(),
                    "the joined dimension would be longer than 2^31 - 1");
        }
        if (parts.length == 1) {
            return parts[0];
        }
        Tensor result = null;
        int offset = 0;
        for (Tensor part : parts) {
            int[] before = new int[part.rank()];
            int[] after = new int[part.rank()];
            before[dimension] = offset;
            after[dimension] = (int) total - offset - part.length(dimension);
            offset += part.length(dimension);
            Tensor placed = pad(part.cast(type), before, after, type == dev.ein4j.ir.DType.BOOL ? 0.0 : -0.0);
            result = result == null ? placed : Elementwise.add(result, placed);
        }
        return result;
    }

    /** Joins tensors of one shape along a new dimension. */
    static Tensor stack(int axis, Tensor[] parts) {
        Arguments.noNulls(parts, "parts");
        if (parts.length == 0) {
            throw new EinopsException("stack needs at least one tensor");
        }
        int position = axis < 0 ? axis + parts[0].rank() + 1 : axis;
        Tensor[] expanded = new Tensor[parts.length];
        for (int i = 0; i < parts.length; i++) {
            if (!Arrays.equals(parts[i].shape(), parts[0].shape())) {
                throw new ShapeException("stack", Arrays.stream(parts).map(p -> Shapes.toLong(p.shape())).toList(),
                        "stack needs tensors of one shape");
            }
            expanded[i] = unsqueeze(parts[i], position);
        }
        return concat(position, expanded);
    }
}
