package dev.ein4j.onnx;

import dev.ein4j.onnx.proto.Attribute;
import dev.ein4j.onnx.proto.ElementType;
import dev.ein4j.onnx.proto.OperatorNode;
import dev.ein4j.onnx.proto.TensorData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ONNX operators that translations emit, each simplified where it is emitted so that the
 * graph stays small: a reshape or transpose that changes nothing is no node, two reshapes in a
 * row are one, two transposes are one, a transpose that only moves length-1 dimensions is a
 * reshape, and shape operations on unnamed constants are computed here. Lengths that grow with a
 * dynamic batch are computed from the batch input's shape when the model runs.
 */
final class GraphOps {

    private final GraphBuilder graph;
    private final int opset;
    private Value batchSource;
    private int batchAxis;
    private final Map<Integer, Value> batchMultiples = new HashMap<>();

    /**
     * @param graph the graph to add to
     * @param opset the opset written
     */
    GraphOps(GraphBuilder graph, int opset) {
        this.graph = graph;
        this.opset = opset;
    }

    GraphBuilder graph() {
        return graph;
    }

    /**
     * @param input the graph input whose shape gives the batch size
     * @param axis its batch axis
     */
    void batchSource(Value input, int axis) {
        batchSource = input;
        batchAxis = axis;
    }

    /** An operator with one output. */
    Value op(String opType, List<Value> inputs, List<Attribute> attributes, ElementType type, int[] shape, int[] batch) {
        return graph.add(opType, inputs, attributes, type, shape, batch);
    }

    /** An elementwise operator of one input, of the input's type and shape. */
    Value unary(String opType, Value x) {
        return op(opType, List.of(x), List.of(), x.type(), x.shape(), x.batch());
    }

    /** An elementwise operator of one input, of the input's shape. */
    Value unary(String opType, Value x, ElementType type) {
        return op(opType, List.of(x), List.of(), type, x.shape(), x.batch());
    }

    /**
     * @param x a value
     * @param type an element type
     * @return x converted to it (x itself when it has that type)
     */
    Value cast(Value x, ElementType type) {
        if (x.type() == type) {
            return x;
        }
        return op("Cast", List.of(x), List.of(Attribute.ofInt("to", type.code())), type, x.shape(), x.batch());
    }

    // ------------------------------------------------------------------ shapes

    /**
     * @param x a value
     * @param shape the new traced shape, of x's size
     * @param batch the new batch factors
     * @return x reshaped
     */
    Value reshape(Value x, int[] shape, int[] batch) {
        if (Arrays.equals(x.shape(), shape) && Arrays.equals(x.batch(), batch)) {
            return x;
        }
        OperatorNode producer = graph.producer(x);
        if (producer != null && producer.opType().equals("Reshape")) {
            return reshape(graph.value(producer.inputs().get(0)), shape, batch);
        }
        TensorData constant = graph.anonymousData(x);
        if (constant != null) {
            return graph.constant(new TensorData("", constant.type(), toLongs(shape), constant.rawData()), shape);
        }
        boolean hasZero = Arrays.stream(shape).anyMatch(length -> length == 0);
        int dynamic = count(batch);
        Value target;
        if (dynamic == 1 && !hasZero) {
            long[] lengths = toLongs(shape);
            for (int k = 0; k < shape.length; k++) {
                if (batch[k] != 0) {
                    lengths[k] = -1; // the one length that grows with the batch, inferred from the size
                }
            }
            target = graph.longs(lengths);
        } else {
            target = shapeTensor(shape, batch);
        }
        List<Attribute> attributes = hasZero ? List.of(Attribute.ofInt("allowzero", 1)) : List.of();
        return op("Reshape", List.of(x, target), attributes, x.type(), shape, batch);
    }

    /**
     * @param x a value
     * @param order output dimension k is input dimension order[k]
     * @return x transposed
     */
    Value transpose(Value x, int[] order) {
        return transpose(x, order, 0);
    }

    /** Simplifications look through at most this many producers (the graph's depth is the user's). */
    private static final int SIMPLIFICATION_DEPTH = 8;

    private Value transpose(Value x, int[] order, int depth) {
        int rank = order.length;
        int[] shape = new int[rank];
        int[] batch = new int[rank];
        boolean identity = true;
        for (int k = 0; k < rank; k++) {
            shape[k] = x.shape()[order[k]];
            batch[k] = x.batch()[order[k]];
            identity &= order[k] == k;
        }
        if (identity) {
            return x;
        }
        if (movesOnlyUnitAxes(x, order)) {
            return reshape(x, shape, batch);
        }
        OperatorNode producer = graph.producer(x);
        if (producer != null && depth < SIMPLIFICATION_DEPTH) {
            Value inner = graph.value(producer.inputs().get(0));
            if (producer.opType().equals("Transpose")) {
                long[] first = producer.attribute("perm").ints();
                int[] combined = new int[rank];
                for (int k = 0; k < rank; k++) {
                    combined[k] = (int) first[order[k]];
                }
                return transpose(inner, combined, depth + 1);
            }
            if (producer.opType().equals("Reshape") && sameLongAxes(inner, x)) {
                // the reshape only added or removed length-1 axes: transpose its input, then reshape
                return reshape(transpose(inner, innerOrder(inner, x, order), depth + 1), shape, batch);
            }
        }
        TensorData constant = graph.anonymousData(x);
        if (constant != null) {
            byte[] permuted = Permutation.bytes(constant.rawData(), x.shape(), order, constant.type().bytes());
            return graph.constant(new TensorData("", constant.type(), toLongs(shape), permuted), shape);
        }
        return op("Transpose", List.of(x), List.of(Attribute.ofInts("perm", order)), x.type(), shape, batch);
    }

    /** The dimensions that are not length 1 (a dynamic one never counts as 1). */
    private static List<Integer> longAxes(Value x) {
        List<Integer> axes = new ArrayList<>();
        for (int k = 0; k < x.rank(); k++) {
            if (x.shape()[k] != 1 || x.batch()[k] != 0) {
                axes.add(k);
            }
        }
        return axes;
    }

    private static boolean sameLongAxes(Value a, Value b) {
        List<Integer> first = longAxes(a);
        List<Integer> second = longAxes(b);
        if (first.size() != second.size()) {
            return false;
        }
        for (int i = 0; i < first.size(); i++) {
            if (a.shape()[first.get(i)] != b.shape()[second.get(i)] || a.batch()[first.get(i)] != b.batch()[second.get(i)]) {
                return false;
            }
        }
        return true;
    }

    /** The order of inner's dimensions that puts its long axes as {@code order} puts x's, its length-1 ones last. */
    private static int[] innerOrder(Value inner, Value x, int[] order) {
        List<Integer> innerLong = longAxes(inner);
        List<Integer> outerLong = longAxes(x);
        List<Integer> result = new ArrayList<>();
        for (int axis : order) {
            int index = outerLong.indexOf(axis);
            if (index >= 0) {
                result.add(innerLong.get(index));
            }
        }
        for (int k = 0; k < inner.rank(); k++) {
            if (!innerLong.contains(k)) {
                result.add(k);
            }
        }
        return result.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Whether the dimensions of length other than 1 keep their relative order (a dynamic one never counts as 1). */
    private static boolean movesOnlyUnitAxes(Value x, int[] order) {
        int last = -1;
        for (int axis : order) {
            if (x.shape()[axis] != 1 || x.batch()[axis] != 0) {
                if (axis < last) {
                    return false;
                }
                last = axis;
            }
        }
        return true;
    }

    /**
     * @param x a value of the same rank as the shape, with length 1 or the target length in each dimension
     * @param shape the target shape
     * @param batch the target's batch factors
     * @return x broadcast to it
     */
    Value expand(Value x, int[] shape, int[] batch) {
        if (Arrays.equals(x.shape(), shape) && Arrays.equals(x.batch(), batch)) {
            return x;
        }
        int[] target = shape.clone();
        int[] targetBatch = batch.clone();
        for (int k = 0; k < shape.length; k++) {
            if (x.shape()[k] == shape[k] && x.batch()[k] == batch[k]) {
                target[k] = 1; // Expand keeps the input's length where the target says 1
                targetBatch[k] = 0;
            }
        }
        return op("Expand", List.of(x, shapeTensor(target, targetBatch)), List.of(), x.type(), shape, batch);
    }

    /**
     * A 1-D int64 tensor of a shape: a constant when every length is fixed, else computed from
     * the batch input's shape.
     *
     * @param shape the traced lengths
     * @param batch the batch factors
     * @return the shape as a value
     */
    Value shapeTensor(int[] shape, int[] batch) {
        if (count(batch) == 0) {
            return graph.longs(toLongs(shape));
        }
        List<Value> pieces = new ArrayList<>();
        List<Long> fixedRun = new ArrayList<>();
        for (int k = 0; k < shape.length; k++) {
            if (batch[k] == 0) {
                fixedRun.add((long) shape[k]);
                continue;
            }
            if (!fixedRun.isEmpty()) {
                pieces.add(graph.longs(fixedRun.stream().mapToLong(Long::longValue).toArray()));
                fixedRun.clear();
            }
            pieces.add(batchMultiple(batch[k]));
        }
        if (!fixedRun.isEmpty()) {
            pieces.add(graph.longs(fixedRun.stream().mapToLong(Long::longValue).toArray()));
        }
        if (pieces.size() == 1) {
            return pieces.get(0);
        }
        return op("Concat", pieces, List.of(Attribute.ofInt("axis", 0)), ElementType.INT64, new int[] {shape.length},
                Value.fixed(1));
    }

    /**
     * @param factor c
     * @return c·B as a 1-element int64 tensor, B the batch size when the model runs
     */
    Value batchMultiple(int factor) {
        Value cached = batchMultiples.get(factor);
        if (cached != null) {
            return cached;
        }
        if (batchSource == null) {
            throw new IllegalStateException("a length grows with the batch but no input carries it");
        }
        Value result;
        if (factor == 1) {
            result = op("Shape", List.of(batchSource), List.of(Attribute.ofInt("start", batchAxis),
                    Attribute.ofInt("end", batchAxis + 1)), ElementType.INT64, new int[] {1}, Value.fixed(1));
        } else {
            result = op("Mul", List.of(batchMultiple(1), graph.longs(factor)), List.of(), ElementType.INT64,
                    new int[] {1}, Value.fixed(1));
        }
        batchMultiples.put(factor, result);
        return result;
    }

    // ------------------------------------------------------------------ reductions and slices

    /**
     * @param opType ReduceSum, ReduceMax, ReduceProd or ReduceMin
     * @param x a value
     * @param axes the reduced dimensions, kept as length 1
     * @return the reduction
     */
    Value reduce(String opType, Value x, int[] axes) {
        int[] shape = x.shape().clone();
        int[] batch = x.batch().clone();
        for (int axis : axes) {
            shape[axis] = 1;
            batch[axis] = 0;
        }
        if (axes.length == 0) {
            return x;
        }
        List<Attribute> keep = new ArrayList<>(List.of(Attribute.ofInt("keepdims", 1)));
        // ReduceSum takes its axes as an input from opset 13, the other reductions from opset 18
        if (opType.equals("ReduceSum") || opset >= 18) {
            return op(opType, List.of(x, graph.longs(toLongs(axes))), keep, x.type(), shape, batch);
        }
        keep.add(Attribute.ofInts("axes", axes));
        return op(opType, List.of(x), keep, x.type(), shape, batch);
    }

    /**
     * @param x a value
     * @param starts per sliced axis, the first index (negative counts from the end)
     * @param ends per sliced axis, one past the last (clamped to the length)
     * @param axes the sliced axes
     * @param steps per sliced axis, the step
     * @param shape the result's traced shape
     * @param batch the result's batch factors
     * @return the slice
     */
    Value slice(Value x, long[] starts, long[] ends, long[] axes, long[] steps, int[] shape, int[] batch) {
        if (axes.length == 0) {
            return x;
        }
        return op("Slice", List.of(x, graph.longs(starts), graph.longs(ends), graph.longs(axes), graph.longs(steps)),
                List.of(), x.type(), shape, batch);
    }

    /**
     * @param x a value
     * @param cuts per sliced axis {axis, start, end, step}
     * @param shape the result's traced shape
     * @param batch the result's batch factors
     * @return the slice (x itself without cuts)
     */
    Value slice(Value x, List<long[]> cuts, int[] shape, int[] batch) {
        long[][] columns = new long[4][cuts.size()];
        for (int i = 0; i < cuts.size(); i++) {
            for (int c = 0; c < 4; c++) {
                columns[c][i] = cuts.get(i)[c];
            }
        }
        return slice(x, columns[1], columns[2], columns[0], columns[3], shape, batch);
    }

    static long[] toLongs(int[] values) {
        return Arrays.stream(values).asLongStream().toArray();
    }

    private static int count(int[] batch) {
        int count = 0;
        for (int factor : batch) {
            if (factor != 0) {
                count++;
            }
        }
        return count;
    }
}
