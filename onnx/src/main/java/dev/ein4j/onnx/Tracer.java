package dev.ein4j.onnx;

import dev.ein4j.ir.Node;
import dev.ein4j.tensor.GradientMode;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Traces a call: runs the function once on the sample inputs, without gradient tracking, and takes
 * the IR graph of its results. Nothing is computed beyond what the function itself reads. With a
 * dynamic batch the call is traced a second time, on the samples with their first batch element
 * appended, and {@link BatchFactors} compares the two graphs; a sample batch of 1 is first grown
 * to 2, since length-1 dimensions broadcast and a graph traced for one element would not hold
 * for more.
 */
final class Tracer {

    private Tracer() {
    }

    static TracedGraph trace(Function<List<Tensor>, List<Tensor>> function, List<Tensor> samples, ExportOptions options) {
        if (!options.hasDynamicBatch()) {
            return new TracedGraph(inputNodes(samples), call(function, samples), options.namedWeights(), options);
        }
        int axis = options.batchAxis();
        int batch = batchLength(samples, axis);
        List<Tensor> traced = samples;
        if (batch == 1) {
            // a batch of 1 broadcasts where larger ones do not, so the graph is traced for 2 and 3; the call on
            // the samples themselves comes first, so that the function's own checks speak of the caller's shapes
            call(function, samples);
            traced = grown(samples, axis);
            batch = 2;
        }
        List<Tensor> grown = grown(traced, axis);
        TracedGraph graph = new TracedGraph(inputNodes(traced), call(function, traced), options.namedWeights(), options);
        TracedGraph second = new TracedGraph(inputNodes(grown), call(function, grown), options.namedWeights(), options);
        BatchFactors.compare(graph, second, batch, batch + 1);
        grown.forEach(Tensor::close); // the second call's inputs are ours, and read no more
        return graph;
    }

    /** The samples with their first batch element appended. */
    private static List<Tensor> grown(List<Tensor> samples, int axis) {
        List<Tensor> grown = new ArrayList<>();
        for (Tensor sample : samples) {
            grown.add(Tensor.concat(axis, sample, sample.slice(axis, 0, 1)).realize());
        }
        return grown;
    }

    private static List<Node> inputNodes(List<Tensor> samples) {
        List<Node> nodes = new ArrayList<>();
        Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < samples.size(); i++) {
            Node node = TensorInternals.node(samples.get(i));
            if (!seen.add(node)) {
                throw new OnnxExportException("sample input " + i + " is the same tensor as an earlier one; each graph"
                        + " input needs a tensor of its own");
            }
            nodes.add(node);
        }
        return nodes;
    }

    private static List<Node> call(Function<List<Tensor>, List<Tensor>> function, List<Tensor> samples) {
        // without gradient tracking, as inference runs (nn's max pooling, for one, takes another form when gradients flow)
        List<Tensor> results = GradientMode.noGrad(() -> function.apply(List.copyOf(samples)));
        if (results == null || results.isEmpty()) {
            throw new OnnxExportException("the traced function returned " + (results == null ? "null" : "no tensors")
                    + "; it must return the graph's outputs");
        }
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            Tensor result = results.get(i);
            if (result == null) {
                throw new OnnxExportException("the traced function's output " + i + " is null");
            }
            nodes.add(TensorInternals.node(result));
        }
        return nodes;
    }

    private static int batchLength(List<Tensor> samples, int axis) {
        if (samples.isEmpty()) {
            throw new OnnxExportException("a dynamic batch needs at least one input to carry it; the samples are empty");
        }
        int batch = -1;
        for (int i = 0; i < samples.size(); i++) {
            Tensor sample = samples.get(i);
            if (axis >= sample.rank()) {
                throw new OnnxExportException("a dynamic batch on axis " + axis + ", but sample input " + i + " has rank "
                        + sample.rank() + " (shape " + java.util.Arrays.toString(sample.shape()) + ")");
            }
            int length = sample.length(axis);
            if (length == 0 || (batch >= 0 && length != batch)) {
                throw new OnnxExportException("a dynamic batch needs every sample input to have one non-zero batch length"
                        + " on axis " + axis + "; sample input " + i + " has " + length + (batch >= 0 ? ", an earlier one "
                        + batch : ""));
            }
            batch = length;
        }
        return batch;
    }
}
