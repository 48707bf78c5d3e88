package dev.ein4j.onnx;

import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.Node;
import dev.ein4j.onnx.proto.Attribute;
import dev.ein4j.onnx.proto.ElementType;
import java.util.ArrayList;
import java.util.List;

/**
 * Recognizes a reduction over window views as pooling: REDUCE_MAX as MaxPool, SUM (the numerator
 * of nn's average pooling) as AveragePool times the window size. nn pools with
 * {@code reduce("... (s*h + d*kh) ... -> ... h ...")} after a pad with the reduction's identity
 * (−∞ or 0): through its {@link WindowAccess} the reduced view reads each trailing (spatial) axis
 * of its base by an output position (kept, step = stride) and a kernel offset (reduced, step =
 * dilation), and each leading axis by one kept dimension. The same holds for the reshape form
 * {@code "b c (h 2) (w 2) -> b c h w"}.
 */
final class Pools {

    private Pools() {
    }

    /**
     * @param node a SUM or REDUCE_MAX
     * @param t the translation
     * @param max whether it is a maximum
     * @return the pooling, or null when the reduction is not one
     */
    static Value recognize(Node node, Translation t, boolean max) {
        if (!node.dtype().isFloating()) {
            return null;
        }
        for (WindowAccess access : WindowAccess.candidates(node.source(0), t)) {
            Geometry geometry = Geometry.of(node, access, t, max);
            if (geometry != null) {
                return emit(node, t, access, geometry, max);
            }
        }
        return null;
    }

    /** Which base axes are spatial, and the window of each. */
    private record Geometry(int leading, int[] kernel, int[] strides, int[] dilations, int[] positions,
            List<Integer> outputDimensions) {

        static Geometry of(Node node, WindowAccess access, Translation t, boolean max) {
            Node base = access.base();
            AxesArgument reduced = (AxesArgument) node.argument();
            int rank = base.rank();
            int first = -1;
            for (int j = 0; j < rank && first < 0; j++) {
                for (int d : access.uses(j)) {
                    if (reduced.contains(d)) {
                        first = j;
                    }
                }
            }
            int spatial = rank - first;
            if (first < 0 || spatial > 3 || (access.isPadded() && access.fill() != (max ? Double.NEGATIVE_INFINITY : 0.0))) {
                return null;
            }
            List<Integer> outputs = new ArrayList<>();
            int claimed = 0;
            for (int j = 0; j < first; j++) {
                List<Integer> uses = access.uses(j);
                if (uses.size() > 1 || access.padBefore(j) + access.padAfter(j) != 0
                        || (uses.size() == 1 && (reduced.contains(uses.get(0)) || access.step(uses.get(0)) != 1))) {
                    return null;
                }
                outputs.addAll(uses);
                claimed += uses.size();
            }
            int[] kernel = new int[spatial];
            int[] strides = new int[spatial];
            int[] dilations = new int[spatial];
            int[] positions = new int[spatial];
            int[] baseBatch = t.batch(base);
            for (int j = 0; j < spatial; j++) {
                Integer position = null;
                Integer offset = null;
                for (int d : access.uses(first + j)) {
                    if (reduced.contains(d) && offset == null) {
                        offset = d;
                    } else if (!reduced.contains(d) && position == null) {
                        position = d;
                    } else {
                        return null;
                    }
                }
                if (baseBatch[first + j] != 0) {
                    return null;
                }
                strides[j] = position == null ? 1 : (int) access.step(position);
                dilations[j] = offset == null ? 1 : (int) access.step(offset);
                positions[j] = position == null ? 1 : access.length(position);
                kernel[j] = offset == null ? 1 : access.length(offset);
                if (position != null) {
                    outputs.add(position);
                    claimed++;
                }
                claimed += offset == null ? 0 : 1;
                if (!max && dilations[j] != 1) {
                    return null; // AveragePool has no dilations before opset 19
                }
            }
            boolean windowed = false;
            for (int j = 0; j < spatial; j++) {
                windowed |= positions[j] > 1 && kernel[j] > 1;
            }
            if (!windowed) {
                return null; // a reduction of whole axes: ReduceMax or ReduceSum
            }
            int nonUnit = 0;
            for (int k = 0; k < node.rank(); k++) {
                nonUnit += node.source(0).length(k) != 1 || t.batch(node.source(0))[k] != 0 ? 1 : 0;
            }
            if (claimed != nonUnit) {
                return null;
            }
            return new Geometry(first, kernel, strides, dilations, positions, outputs);
        }
    }

    private static Value emit(Node node, Translation t, WindowAccess access, Geometry geometry, boolean max) {
        GraphOps ops = t.ops();
        Value x = ops.cast(t.value(access.base()), ElementType.of(node.dtype()));
        int spatial = geometry.kernel().length;
        Value images = asImages(ops, x, geometry.leading(), t, node);
        long[] pads = new long[2 * spatial];
        int[] shape = new int[spatial + 2];
        int[] batch = new int[spatial + 2];
        shape[0] = images.shape()[0];
        shape[1] = images.shape()[1];
        batch[0] = images.batch()[0];
        batch[1] = images.batch()[1];
        for (int j = 0; j < spatial; j++) {
            int axis = geometry.leading() + j;
            pads[j] = access.padBefore(axis);
            pads[spatial + j] = access.padAfter(axis);
            shape[2 + j] = outputLength(images.shape()[2 + j], pads[j], pads[spatial + j], geometry.kernel()[j],
                    geometry.strides()[j], geometry.dilations()[j]);
        }
        List<Attribute> attributes = new ArrayList<>(List.of(Attribute.ofInts("kernel_shape", geometry.kernel()),
                Attribute.ofInts("strides", geometry.strides()), Attribute.ofInts("pads", pads)));
        Value pooled;
        if (max) {
            attributes.add(Attribute.ofInts("dilations", geometry.dilations()));
            pooled = ops.op("MaxPool", List.of(images), attributes, images.type(), shape, batch);
            Value nanFlags = ops.cast(ops.unary("IsNaN", images, ElementType.BOOL), images.type());
            Value anyNaN = ops.op("MaxPool", List.of(nanFlags), attributes, images.type(), shape, batch);
            pooled = Reductions.withNaN(ops, pooled, anyNaN);
        } else {
            attributes.add(Attribute.ofInt("count_include_pad", 1));
            Value mean = ops.op("AveragePool", List.of(images), attributes, images.type(), shape, batch);
            long window = 1;
            for (int k : geometry.kernel()) {
                window *= k;
            }
            pooled = ops.op("Mul", List.of(mean, ops.graph().scalar(mean.type(), window)), List.of(), mean.type(), shape,
                    batch);
        }
        Value cut = cutToPositions(ops, pooled, geometry.positions());
        return Contractions.arrange(ops, cut, geometry.outputDimensions(), node, t);
    }

    /** The base as [N, C, spatial...]: its leading axes merged into the first, or a length-1 one added. */
    private static Value asImages(GraphOps ops, Value x, int leading, Translation t, Node node) {
        if (leading == 2) {
            return x;
        }
        int spatial = x.rank() - leading;
        int[] shape = new int[spatial + 2];
        int[] batch = new int[spatial + 2];
        int[] merged = x.merged(java.util.stream.IntStream.range(0, leading).toArray());
        if (merged == null) {
            throw t.error(node, "two dimensions that grow with the batch are merged");
        }
        shape[0] = merged[0];
        batch[0] = merged[1];
        shape[1] = 1;
        System.arraycopy(x.shape(), leading, shape, 2, spatial);
        return ops.reshape(x, shape, batch);
    }

    /**
     * @return ONNX's output length of a window operator, ⌊(L + before + after − d·(k − 1) − 1) / s⌋ + 1
     */
    static int outputLength(int length, long before, long after, int kernel, int stride, int dilation) {
        long span = (long) dilation * (kernel - 1) + 1;
        return (int) ((length + before + after - span) / stride + 1);
    }

    /**
     * The first {@code positions[j]} outputs of each spatial axis: ONNX computes every position that
     * fits, a window view may keep fewer.
     */
    static Value cutToPositions(GraphOps ops, Value pooled, int[] positions) {
        List<long[]> cuts = new ArrayList<>();
        int[] shape = pooled.shape().clone();
        for (int j = 0; j < positions.length; j++) {
            if (shape[2 + j] != positions[j]) {
                cuts.add(new long[] {2 + j, 0, positions[j], 1});
                shape[2 + j] = positions[j];
            }
        }
        return ops.slice(pooled, cuts, shape, pooled.batch());
    }
}
