package dev.ein4j.onnx;

import dev.ein4j.ir.Node;
import dev.ein4j.onnx.Contractions.Role;
import dev.ein4j.onnx.proto.Attribute;
import dev.ein4j.onnx.proto.ElementType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Recognizes a contraction that is a convolution and writes it as one Conv. nn's convolution is
 * {@code einsum("b (g c) (s*h + d*kh) ..., (g o) c kh ... -> b (g o) h ...")} after a zero pad:
 * the image operand reads, through its {@link WindowAccess}, base axis 0 by the batch (an M
 * dimension, the image's own), axis 1 by the group (batch role, step C/g) and the channel (summed,
 * step 1), and each spatial axis by an output position (M, step = stride) and a kernel offset
 * (summed, step = dilation); the kernel operand reads axis 0 by the group (step O/g) and the
 * output channel (N), axis 1 by the channel and each kernel axis by its offset (step 1). Every
 * dimension of the contraction must be one of these. Anything else is left to MatMul.
 */
final class Convolutions {

    private Convolutions() {
    }

    /** @return the Conv translation of the node, or null when it is not a convolution */
    static Value recognize(Node node, Translation t) {
        if (!node.dtype().isFloating()) {
            return null;
        }
        Node x = t.expandSource(node.source(0));
        Node y = t.expandSource(node.source(1));
        Role[] roles = Contractions.roles(node, t, x, y);
        Value found = tryOrders(node, t, roles, x, y, Role.M, Role.N);
        return found != null ? found : tryOrders(node, t, roles, y, x, Role.N, Role.M);
    }

    private static Value tryOrders(Node node, Translation t, Role[] roles, Node image, Node kernel, Role imageOnly,
            Role kernelOnly) {
        List<WindowAccess> images = WindowAccess.candidates(image, t);
        if (images.isEmpty()) {
            return null;
        }
        for (WindowAccess kernelAccess : WindowAccess.candidates(kernel, t)) {
            for (WindowAccess imageAccess : images) {
                Geometry geometry = Geometry.of(roles, imageAccess, kernelAccess, imageOnly, kernelOnly, t);
                if (geometry != null) {
                    return emit(node, t, geometry, imageAccess, kernelAccess);
                }
            }
        }
        return null;
    }

    /** What a recognized convolution is: which contraction dimension plays which part, and its attributes. */
    private record Geometry(int spatial, int groups, int[] kernel, int[] strides, int[] dilations, int[] positions,
            List<Integer> outputDimensions) {

        /** Claims of the contraction's dimensions, each by one part. */
        private static final class Claims {
            private final Map<Integer, String> parts = new HashMap<>();
            private final Role[] roles;

            Claims(Role[] roles) {
                this.roles = roles;
            }

            /** Claims dimension d for a part, or checks that the same part claimed it. */
            boolean claim(int dimension, String part, Role role, long step, WindowAccess by) {
                if (roles[dimension] != role || by.step(dimension) != step) {
                    return false;
                }
                String previous = parts.putIfAbsent(dimension, part);
                return previous == null || previous.equals(part);
            }

            boolean claimedAll() {
                for (int k = 0; k < roles.length; k++) {
                    if (roles[k] != Role.UNIT && !parts.containsKey(k)) {
                        return false;
                    }
                }
                return true;
            }
        }

        static Geometry of(Role[] roles, WindowAccess image, WindowAccess kernel, Role imageOnly, Role kernelOnly,
                Translation t) {
            Node x = image.base();
            Node w = kernel.base();
            int spatial = x.rank() - 2;
            if (spatial < 1 || spatial > 3 || w.rank() != spatial + 2 || !x.dtype().isFloating() || kernel.isPadded()
                    || (image.isPadded() && image.fill() != 0.0) || image.padBefore(0) + image.padAfter(0) != 0
                    || image.padBefore(1) + image.padAfter(1) != 0 || !fixedExceptFirst(t.batch(x))
                    || !fixedExceptFirst(t.batch(w)) || t.batch(w)[0] != 0) {
                return null;
            }
            Claims claims = new Claims(roles);
            List<Integer> outputs = new ArrayList<>();
            // the image's batch axis
            List<Integer> batch = image.uses(0);
            if (batch.size() > 1 || (batch.size() == 1 && !claims.claim(batch.get(0), "n", imageOnly, 1, image))) {
                return null;
            }
            outputs.addAll(batch);
            // channels: (g c) of the image, (g o) and c of the kernel
            Integer group = null;
            Integer channel = null;
            for (int d : image.uses(1)) {
                if (roles[d] == Role.BATCH && group == null) {
                    group = d;
                } else if (roles[d] == Role.K && channel == null) {
                    channel = d;
                } else {
                    return null;
                }
            }
            int perGroup = channel == null ? 1 : image.length(channel);
            int groups = group == null ? 1 : image.length(group);
            if (x.length(1) != (long) groups * perGroup || w.length(1) != perGroup
                    || (channel != null && !claims.claim(channel, "c", Role.K, 1, image))
                    || (group != null && !claims.claim(group, "g", Role.BATCH, perGroup, image))) {
                return null;
            }
            Integer output = null;
            Integer kernelGroup = null;
            for (int d : kernel.uses(0)) {
                if (roles[d] == Role.BATCH && kernelGroup == null) {
                    kernelGroup = d;
                } else if (roles[d] == kernelOnly && output == null) {
                    output = d;
                } else {
                    return null;
                }
            }
            int outputsPerGroup = output == null ? 1 : kernel.length(output);
            if (w.length(0) != (long) groups * outputsPerGroup || (kernelGroup == null) != (group == null)
                    || (kernelGroup != null && !claims.claim(kernelGroup, "g", Role.BATCH, outputsPerGroup, kernel))
                    || (output != null && !claims.claim(output, "o", kernelOnly, 1, kernel))) {
                return null;
            }
            if (group != null) {
                outputs.add(group);
            }
            if (output != null) {
                outputs.add(output);
            }
            List<Integer> kernelChannel = kernel.uses(1);
            if (kernelChannel.size() != (channel == null ? 0 : 1)
                    || (channel != null && (kernelChannel.get(0).intValue() != channel
                    || !claims.claim(channel, "c", Role.K, 1, kernel)))) {
                return null;
            }
            int[] kernelShape = new int[spatial];
            int[] strides = new int[spatial];
            int[] dilations = new int[spatial];
            int[] positions = new int[spatial];
            for (int j = 0; j < spatial; j++) {
                Integer position = null;
                Integer offset = null;
                for (int d : image.uses(2 + j)) {
                    if (roles[d] == imageOnly && position == null) {
                        position = d;
                    } else if (roles[d] == Role.K && offset == null) {
                        offset = d;
                    } else {
                        return null;
                    }
                }
                strides[j] = position == null ? 1 : (int) image.step(position);
                dilations[j] = offset == null ? 1 : (int) image.step(offset);
                positions[j] = position == null ? 1 : image.length(position);
                kernelShape[j] = offset == null ? 1 : image.length(offset);
                List<Integer> kernelOffset = kernel.uses(2 + j);
                if (w.length(2 + j) != kernelShape[j] || kernelOffset.size() != (offset == null ? 0 : 1)
                        || (offset != null && (kernelOffset.get(0).intValue() != offset
                        || !claims.claim(offset, "k" + j, Role.K, dilations[j], image)
                        || !claims.claim(offset, "k" + j, Role.K, 1, kernel)))
                        || (position != null && !claims.claim(position, "h" + j, imageOnly, strides[j], image))) {
                    return null;
                }
                if (position != null) {
                    outputs.add(position);
                }
            }
            if (!claims.claimedAll()) {
                return null;
            }
            return new Geometry(spatial, groups, kernelShape, strides, dilations, positions, outputs);
        }
    }

    /** Whether every dimension but the first has a fixed length. */
    static boolean fixedExceptFirst(int[] batch) {
        for (int k = 1; k < batch.length; k++) {
            if (batch[k] != 0) {
                return false;
            }
        }
        return true;
    }

    private static Value emit(Node node, Translation t, Geometry geometry, WindowAccess image, WindowAccess kernel) {
        GraphOps ops = t.ops();
        ElementType type = ElementType.of(node.dtype());
        Value x = ops.cast(t.value(image.base()), type);
        Value w = ops.cast(t.value(kernel.base()), type);
        int n = geometry.spatial();
        long[] pads = new long[2 * n];
        int[] shape = new int[n + 2];
        int[] batch = new int[n + 2];
        shape[0] = x.shape()[0];
        batch[0] = x.batch()[0];
        shape[1] = w.shape()[0];
        for (int j = 0; j < n; j++) {
            pads[j] = image.padBefore(2 + j);
            pads[n + j] = image.padAfter(2 + j);
            shape[2 + j] = Pools.outputLength(x.shape()[2 + j], pads[j], pads[n + j], geometry.kernel()[j],
                    geometry.strides()[j], geometry.dilations()[j]);
        }
        List<Attribute> attributes = List.of(Attribute.ofInts("kernel_shape", geometry.kernel()),
                Attribute.ofInts("strides", geometry.strides()), Attribute.ofInts("dilations", geometry.dilations()),
                Attribute.ofInts("pads", pads), Attribute.ofInt("group", geometry.groups()));
        Value convolved = ops.op("Conv", List.of(x, w), attributes, type, shape, batch);
        Value cut = Pools.cutToPositions(ops, convolved, geometry.positions());
        return Contractions.arrange(ops, cut, geometry.outputDimensions(), node, t);
    }
}
