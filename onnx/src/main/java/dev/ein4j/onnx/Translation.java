package dev.ein4j.onnx;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.GraphOrder;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.onnx.proto.ElementType;
import dev.ein4j.onnx.proto.Graph;
import dev.ein4j.onnx.proto.TensorData;
import dev.ein4j.onnx.proto.ValueInfo;
import dev.ein4j.runtime.Lifetimes;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One translation of a traced graph into an ONNX graph: declares the inputs, translates every
 * needed node in post-order through {@link Translations}, writes constants as initializers when
 * a translation first reads them, and names the outputs. Translations read their sources through
 * {@link #value(Node)}.
 */
final class Translation {

    /** The symbolic name of a dynamic batch length. */
    static final String BATCH = "batch";

    private final TracedGraph graph;
    private final Plan plan;
    private final ExportOptions options;
    private final GraphBuilder builder = new GraphBuilder();
    private final GraphOps ops;
    private final Map<Node, Value> values = new IdentityHashMap<>();

    Translation(TracedGraph graph, ExportOptions options) {
        this.graph = graph;
        this.options = options;
        this.plan = new Plan(graph);
        this.ops = new GraphOps(builder, options.opset());
    }

    /** @return the ONNX graph of the traced call */
    Graph run(String name) {
        for (String reserved : graph.inputNames()) {
            builder.reserve(reserved);
        }
        for (String reserved : graph.outputNames()) {
            if (!builder.reserve(reserved)) {
                throw new OnnxExportException("output name '" + reserved + "' is also an input's name");
            }
        }
        List<ValueInfo> inputs = declareInputs();
        for (Node node : graph.order()) {
            if (plan.mode(node) == Plan.Mode.OPERATORS && plan.isNeeded(node)) {
                values.put(node, translate(node));
            }
        }
        List<ValueInfo> outputs = new ArrayList<>();
        for (int i = 0; i < graph.outputs().size(); i++) {
            Node node = graph.outputs().get(i);
            Value value = value(node);
            String outputName = graph.outputNames().get(i);
            builder.add("Identity", outputName, List.of(value), List.of(), value.type(), value.shape(), value.batch());
            outputs.add(new ValueInfo(outputName, value.type(), dimensions(value.shape(), value.batch())));
        }
        return builder.build(name, inputs, outputs);
    }

    private List<ValueInfo> declareInputs() {
        List<ValueInfo> inputs = new ArrayList<>();
        for (int i = 0; i < graph.inputs().size(); i++) {
            Node node = graph.inputs().get(i);
            String inputName = graph.inputNames().get(i);
            ElementType internal = ElementType.of(node.dtype());
            ElementType declared = internal == ElementType.INT32 && options.declaresInt64Inputs() ? ElementType.INT64 : internal;
            int[] batch = graph.batch(node);
            Value input = builder.input(inputName, declared, node.shape(), batch);
            if (i == 0 && options.hasDynamicBatch()) {
                ops.batchSource(input, options.batchAxis());
            }
            values.put(node, ops.cast(input, internal));
            inputs.add(new ValueInfo(inputName, declared, dimensions(node.shape(), batch)));
        }
        return inputs;
    }

    private static List<ValueInfo.Dimension> dimensions(int[] shape, int[] batch) {
        List<ValueInfo.Dimension> dimensions = new ArrayList<>();
        for (int k = 0; k < shape.length; k++) {
            dimensions.add(batch[k] == 0 ? ValueInfo.Dimension.of(shape[k])
                    : batch[k] == 1 ? ValueInfo.Dimension.symbolic(BATCH) : ValueInfo.Dimension.unknown());
        }
        return dimensions;
    }

    private Value translate(Node node) {
        Value value = Translations.of(node.op()).translate(node, this);
        if (!Arrays.equals(value.shape(), node.shape()) || !Arrays.equals(value.batch(), batch(node))
                || value.type() != ElementType.of(node.dtype())) {
            throw new IllegalStateException("the translation of " + NodeDescription.of(node) + " made " + value
                    + ", expected " + ElementType.of(node.dtype()) + Arrays.toString(node.shape()) + " with batch factors "
                    + Arrays.toString(batch(node)));
        }
        return value;
    }

    // ------------------------------------------------------------------ what translations use

    /** @return the operators of the graph under construction */
    GraphOps ops() {
        return ops;
    }

    /**
     * @param node a node
     * @return per dimension, the multiple of the batch size its length is (0: fixed)
     */
    int[] batch(Node node) {
        return graph.batch(node);
    }

    /**
     * Whether a translation may read a node: it is a graph input, a constant, or translated (every
     * source of a translated node is). Translations that look through several nodes (a window
     * under a convolution, an expand under a product) check this before reading deeper.
     *
     * @param node a node
     * @return whether {@link #value(Node)} can give it
     */
    boolean isReadable(Node node) {
        int position = graph.position(node);
        if (position < 0) {
            return false;
        }
        Plan.Mode mode = plan.mode(node);
        return mode != Plan.Mode.OPERATORS || plan.isNeeded(node);
    }

    /**
     * @param node a readable node
     * @return its value in the ONNX graph; a constant's initializer is written on first use
     */
    Value value(Node node) {
        Value value = values.get(node);
        if (value != null) {
            return value;
        }
        if (plan.mode(node) != Plan.Mode.CONSTANT) {
            throw new IllegalStateException(NodeDescription.of(node) + " is read before it is translated");
        }
        value = constant(node);
        values.put(node, value);
        return value;
    }

    /**
     * @param node a node
     * @param dtype a type
     * @return its value converted to the type
     */
    Value value(Node node, DType dtype) {
        return ops.cast(value(node), ElementType.of(dtype));
    }

    private Value constant(Node node) {
        if (plan.isRandom(node) && !options.freezesRandom()) {
            throw error(node, "it depends on " + NodeDescription.brief(randomSource(node)) + ", random numbers drawn in"
                    + " the traced call, which an ONNX model would not draw; call eval() on the model (dropout), pass the"
                    + " random numbers as an input, or export with ExportOptions.freezeRandom() to keep this call's"
                    + " numbers as constants");
        }
        String weightName = graph.weightName(node);
        TensorData data;
        try {
            data = read(node);
        } catch (EinopsException unreadable) {
            throw error(node, "its values cannot be read (" + unreadable.getMessage() + ")");
        }
        if (weightName != null) {
            String name = builder.reserve(weightName) ? weightName : builder.freshName(weightName);
            return builder.initializer(data.named(name), node.shape());
        }
        return builder.constant(data, node.shape());
    }

    /** The first RAND not yet computed below a node. */
    private static Node randomSource(Node node) {
        for (Node below : GraphOrder.postOrder(List.of(node), n -> Lifetimes.data(n) == null)) {
            if (below.op() == Op.RAND && Lifetimes.data(below) == null) {
                return below;
            }
        }
        return node;
    }

    private static TensorData read(Node node) {
        Tensor tensor = TensorInternals.wrap(node);
        long[] dims = GraphOps.toLongs(node.shape());
        return switch (node.dtype()) {
            case FLOAT32 -> TensorData.ofFloats("", dims, tensor.toFloatArray());
            case FLOAT64 -> TensorData.ofDoubles("", dims, tensor.toDoubleArray());
            case INT32 -> TensorData.ofInts("", dims, tensor.toIntArray());
            case BOOL -> TensorData.ofBooleans("", dims, tensor.toBooleanArray());
        };
    }

    /**
     * Looks through broadcasts: EXPANDs, and RESHAPEs that only add leading length-1 dimensions
     * (which numpy-style broadcasting adds by itself).
     *
     * @param node a node
     * @return the deepest readable node below it that broadcasts to it
     */
    Node broadcastSource(Node node) {
        Node current = throughIdentities(node);
        while (current.sourceCount() == 1 && isReadable(current.source(0))
                && (current.op() == Op.EXPAND || (current.op() == Op.RESHAPE && addsLeadingUnits(current)))) {
            current = throughIdentities(current.source(0));
        }
        return current;
    }

    /**
     * @param node a node
     * @return the first node below it that is not a DETACH or CONTIGUOUS (which are the same
     *     values: a no-grad scope wraps every result in a DETACH)
     */
    Node throughIdentities(Node node) {
        Node current = node;
        while ((current.op() == Op.DETACH || current.op() == Op.CONTIGUOUS) && isReadable(current.source(0))) {
            current = current.source(0);
        }
        return current;
    }

    /**
     * Looks through EXPANDs only, which keep the rank.
     *
     * @param node a node
     * @return the deepest readable node below a chain of EXPANDs
     */
    Node expandSource(Node node) {
        Node current = throughIdentities(node);
        while (current.op() == Op.EXPAND && isReadable(current.source(0))) {
            current = throughIdentities(current.source(0));
        }
        return current;
    }

    private static boolean addsLeadingUnits(Node reshape) {
        int[] out = reshape.shape();
        int[] in = reshape.source(0).shape();
        int extra = out.length - in.length;
        if (extra < 0) {
            return false;
        }
        for (int k = 0; k < extra; k++) {
            if (out[k] != 1) {
                return false;
            }
        }
        return Arrays.equals(Arrays.copyOfRange(out, extra, out.length), in);
    }

    /**
     * @param node the node at fault
     * @param reason why it cannot be exported
     * @return the exception naming it and the outputs it feeds
     */
    OnnxExportException error(Node node, String reason) {
        return NodeDescription.error(node, graph, reason);
    }
}
