package dev.ein4j.onnx;

import dev.ein4j.onnx.proto.Attribute;
import dev.ein4j.onnx.proto.ElementType;
import dev.ein4j.onnx.proto.Graph;
import dev.ein4j.onnx.proto.OperatorNode;
import dev.ein4j.onnx.proto.TensorData;
import dev.ein4j.onnx.proto.ValueInfo;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ONNX graph under construction: operator nodes in the order they are added (which is
 * topological, since a node's inputs exist before it), initializers, and the producer of every
 * value. Small constants with equal contents are written once. {@link #build} keeps only what
 * the outputs need.
 */
final class GraphBuilder {

    /** Constants up to this many bytes are shared by content. */
    private static final int SHARED_CONSTANT_BYTES = 1024;

    private final List<OperatorNode> nodes = new ArrayList<>();
    private final Map<String, OperatorNode> producers = new HashMap<>();
    private final Map<String, TensorData> initializers = new LinkedHashMap<>();
    private final Map<String, Value> sharedConstants = new HashMap<>();
    private final Map<String, Value> values = new HashMap<>();
    private final Set<String> anonymous = new HashSet<>();
    private final Set<String> names = new HashSet<>();
    private final Map<String, Integer> counters = new HashMap<>();

    /**
     * @param hint what the value is ("MatMul", "weight")
     * @return a name not used yet
     */
    String freshName(String hint) {
        String name;
        do {
            int count = counters.merge(hint, 1, Integer::sum);
            name = hint + "_" + count;
        } while (names.contains(name));
        names.add(name);
        return name;
    }

    /**
     * Reserves a name given by the caller (an input, output or weight name).
     *
     * @param name the name
     * @return whether it was free
     */
    boolean reserve(String name) {
        return names.add(name);
    }

    /**
     * @param data a tensor whose name is reserved or fresh
     * @param shape its shape
     * @return the initializer's value
     */
    Value initializer(TensorData data, int[] shape) {
        initializers.put(data.name(), data);
        return register(new Value(data.name(), data.type(), shape.clone(), Value.fixed(shape.length)));
    }

    /**
     * Declares a graph input.
     *
     * @param name its reserved name
     * @param type its element type
     * @param shape its traced shape
     * @param batch its batch factors
     * @return the input's value
     */
    Value input(String name, ElementType type, int[] shape, int[] batch) {
        return register(new Value(name, type, shape.clone(), batch.clone()));
    }

    private Value register(Value value) {
        values.put(value.name(), value);
        return value;
    }

    /**
     * @param name a value's name
     * @return the value
     */
    Value value(String name) {
        return values.get(name);
    }

    /**
     * An unnamed constant: written once per distinct content when small.
     *
     * @param data the tensor (its name is replaced)
     * @param shape its shape
     * @return the constant's value
     */
    Value constant(TensorData data, int[] shape) {
        if (data.rawData().length > SHARED_CONSTANT_BYTES) {
            return anonymousInitializer(data, shape);
        }
        String key = data.type() + Arrays.toString(shape) + Base64.getEncoder().encodeToString(data.rawData());
        Value shared = sharedConstants.get(key);
        if (shared == null) {
            shared = anonymousInitializer(data, shape);
            sharedConstants.put(key, shared);
        }
        return shared;
    }

    private Value anonymousInitializer(TensorData data, int[] shape) {
        Value value = initializer(data.named(freshName("constant")), shape);
        anonymous.add(value.name());
        return value;
    }

    /**
     * @param value a value
     * @return the data of an unnamed constant (one that may be replaced by a computed one), else null
     */
    TensorData anonymousData(Value value) {
        return anonymous.contains(value.name()) ? initializers.get(value.name()) : null;
    }

    /** @return a 1-D int64 constant (shapes, axes, pads, indices) */
    Value longs(long... values) {
        return constant(TensorData.ofLongs("", new long[] {values.length}, values), new int[] {values.length});
    }

    /**
     * @param type an element type
     * @param value a number (rounded to the type)
     * @return a scalar (rank-0) constant
     */
    Value scalar(ElementType type, double value) {
        ByteBuffer bytes = ByteBuffer.allocate(type.bytes()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        switch (type) {
            case FLOAT -> bytes.putFloat((float) value);
            case DOUBLE -> bytes.putDouble(value);
            case INT32 -> bytes.putInt((int) value);
            case INT64 -> bytes.putLong((long) value);
            case BOOL -> bytes.put((byte) (value != 0 ? 1 : 0));
        }
        return constant(new TensorData("", type, new long[0], bytes.array()), new int[0]);
    }

    /**
     * Adds an operator with one output.
     *
     * @param opType the operator
     * @param inputs its inputs (null for an omitted optional one)
     * @param attributes its attributes
     * @param type the output's element type
     * @param shape the output's shape
     * @param batch the output's batch factors
     * @return the output
     */
    Value add(String opType, List<Value> inputs, List<Attribute> attributes, ElementType type, int[] shape, int[] batch) {
        return add(opType, freshName(opType), inputs, attributes, type, shape, batch);
    }

    /**
     * Adds an operator whose output has a given, reserved name.
     *
     * @param opType the operator
     * @param output the output's name
     * @param inputs its inputs (null for an omitted optional one)
     * @param attributes its attributes
     * @param type the output's element type
     * @param shape the output's shape
     * @param batch the output's batch factors
     * @return the output
     */
    Value add(String opType, String output, List<Value> inputs, List<Attribute> attributes, ElementType type, int[] shape,
            int[] batch) {
        List<String> inputNames = new ArrayList<>(inputs.size());
        for (Value input : inputs) {
            inputNames.add(input == null ? "" : input.name());
        }
        OperatorNode node = new OperatorNode(opType, inputNames, List.of(output), output, attributes);
        nodes.add(node);
        producers.put(output, node);
        return register(new Value(output, type, shape.clone(), batch.clone()));
    }

    /**
     * @param value a value
     * @return the operator that computes it, or null for an input or initializer
     */
    OperatorNode producer(Value value) {
        return producers.get(value.name());
    }

    /**
     * The graph with what the outputs need: operators whose results nobody reads, and
     * initializers nobody reads, are left out.
     *
     * @param name the graph's name
     * @param inputs the graph inputs
     * @param outputs the graph outputs (values produced here, named as the caller asked)
     * @return the graph
     */
    Graph build(String name, List<ValueInfo> inputs, List<ValueInfo> outputs) {
        Set<String> live = new HashSet<>();
        Deque<String> pending = new ArrayDeque<>();
        for (ValueInfo output : outputs) {
            pending.push(output.name());
        }
        while (!pending.isEmpty()) {
            String value = pending.pop();
            if (!live.add(value)) {
                continue;
            }
            OperatorNode producer = producers.get(value);
            if (producer != null) {
                for (String input : producer.inputs()) {
                    if (!input.isEmpty()) {
                        pending.push(input);
                    }
                }
            }
        }
        List<OperatorNode> kept = new ArrayList<>();
        for (OperatorNode node : nodes) {
            if (live.contains(node.outputs().get(0))) {
                kept.add(node);
            }
        }
        List<TensorData> weights = new ArrayList<>();
        for (TensorData data : initializers.values()) {
            if (live.contains(data.name())) {
                weights.add(data);
            }
        }
        return new Graph(name, kept, weights, inputs, outputs);
    }
}
