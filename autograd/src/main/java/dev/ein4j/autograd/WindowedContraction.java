package dev.ein4j.autograd;

import dev.ein4j.ir.AxesArgument;
import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.PadArgument;
import dev.ein4j.ir.PermuteArgument;
import dev.ein4j.ir.WindowArgument;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The gradient of a contraction with respect to a windowed operand, as a transposed convolution.
 *
 * <p>A convolution contracts windows of its input x with a kernel w: y[h] = Σ_{k,c} x[s·h + d·k]·w[k]
 * (batch and channel axes aside). Following the rules blindly, the gradient would first form
 * ∂L/∂window[h, k] = Σ_o g[h]·w[k], K times the input's size, and then overlap-add it. Instead,
 * dx[p] = Σ_{k,o} g'[p, k]·w[k] with g' a view of the cotangent: spread with stride s, padded by
 * d·(K − 1), windowed with dilation d and flipped along k, so g'[p, k] = g[(p − d·k)/s] where that
 * is a whole position and 0 elsewhere. That is one contraction reading g through a window view: no
 * buffer larger than g itself.
 *
 * <p>It applies when the operand is windows of a tensor aligned by permutes, unit reshapes and an
 * expand (what einsum's lowering makes of a window pattern), every kernel axis is summed and every
 * position axis kept, and the other operand does not vary along the positions; otherwise the caller
 * uses the general rules.
 */
final class WindowedContraction {

    private enum Kind { INPUT, POSITION, KERNEL }

    /** What an axis of the windowed tensor is: an axis of the input, or a window's position or kernel axis. */
    private record Role(Kind kind, int index) {
    }

    private WindowedContraction() {
    }

    /**
     * @param y the CONTRACT node
     * @param side which operand
     * @param g the cotangent of y
     * @param singleUse whether a node may be differentiated through (see {@link VjpRules#apply})
     * @return the contribution to the windowed tensor's source (or to the source of its padding),
     *     or null if the rewrite does not apply
     */
    static Contribution gradient(Node y, int side, Tensor g, java.util.function.Predicate<Node> singleUse) {
        List<Node> views = new ArrayList<>();
        Node node = y.source(side);
        while (node.op() == Op.EXPAND || node.op() == Op.RESHAPE || node.op() == Op.PERMUTE) {
            views.add(node);
            node = node.source(0);
        }
        List<Node> windows = new ArrayList<>();
        while (node.op() == Op.WINDOW) {
            windows.add(node);
            node = node.source(0);
        }
        if (windows.isEmpty()) {
            return null;
        }
        Node input = node;
        List<Role> roles = windowRoles(input, windows);
        int[] labels = alignedLabels(roles.size(), windows.get(0), views);
        if (labels == null) {
            return null;
        }
        int[] summed = ((AxesArgument) y.argument()).axes();
        int[] positionAxis = new int[windows.size()];
        int[] kernelAxis = new int[windows.size()];
        Arrays.fill(positionAxis, -1);
        Arrays.fill(kernelAxis, -1);
        for (int f = 0; f < labels.length; f++) {
            if (labels[f] >= 0) {
                Role role = roles.get(labels[f]);
                if (role.kind() == Kind.POSITION) {
                    positionAxis[role.index()] = f;
                } else if (role.kind() == Kind.KERNEL) {
                    kernelAxis[role.index()] = f;
                }
            }
        }
        Node other = y.source(1 - side);
        Node otherSmall = other.op() == Op.EXPAND ? other.source(0) : other;
        for (int i = 0; i < windows.size(); i++) {
            boolean fits = positionAxis[i] >= 0 && kernelAxis[i] >= 0 && Arrays.binarySearch(summed, kernelAxis[i]) >= 0
                    && Arrays.binarySearch(summed, positionAxis[i]) < 0 && otherSmall.length(positionAxis[i]) == 1;
            if (!fits) {
                return null;
            }
        }
        // every position axis spread and padded first, so that the padded cotangent is made compact
        // once and each window after that is a view of it
        Tensor spread = g;
        int[] full = y.source(side).shape();
        for (int i = 0; i < windows.size(); i++) {
            WindowArgument window = (WindowArgument) windows.get(i).argument();
            int length = windows.get(i).source(0).length(window.axis());
            spread = spreadAndPad(spread, window, length, positionAxis[i]);
            full[positionAxis[i]] = length;
        }
        for (int i = 0; i < windows.size(); i++) {
            WindowArgument window = (WindowArgument) windows.get(i).argument();
            int length = windows.get(i).source(0).length(window.axis());
            spread = flippedWindow(spread, window, length, positionAxis[i], kernelAxis[i]);
        }
        Node target = input;
        if (paddedOnlyAlongWindows(input, roles, windows.size()) && singleUse.test(input)) {
            // A padded convolution's input: the gradient of the padding is cut off afterwards, so only
            // the positions of the unpadded input are computed (conv2's 14 x 14 of 16 x 16 in the flagship).
            target = input.source(0);
            PadArgument pad = (PadArgument) input.argument();
            int[] starts = new int[spread.rank()];
            int[] ends = spread.shape();
            for (int i = 0; i < windows.size(); i++) {
                int axis = inputAxis(roles, i);
                starts[positionAxis[i]] = pad.before()[axis];
                ends[positionAxis[i]] = pad.before()[axis] + target.length(axis);
                full[positionAxis[i]] = target.length(axis);
            }
            spread = spread.shrink(starts, ends);
        }
        List<Integer> gradientSummed = new ArrayList<>();
        for (int f = 0; f < labels.length; f++) {
            if (labels[f] < 0 || roles.get(labels[f]).kind() == Kind.KERNEL) {
                gradientSummed.add(f);
            }
        }
        // Both operands are permuted into the input's layout first, so that the contraction writes
        // the gradient in that layout (channels first for NCHW) rather than the window's (channels
        // between the positions and the kernel axes), which a permuted copy or strided reads would cost.
        int[] order = inputOrder(input, roles, labels, positionAxis);
        int[] summedAt = java.util.stream.IntStream.range(0, order.length).filter(p -> gradientSummed.contains(order[p])).toArray();
        Tensor product = TensorInternals.contract(TensorInternals.broadcastTo(spread, full).permute(order),
                TensorInternals.broadcastTo(TensorInternals.wrap(otherSmall), full).permute(order), summedAt);
        return new Contribution(target, product.reshape(target.shape()));
    }

    /** Whether a node is a PAD whose padding lies only along the axes the windows slide over. */
    private static boolean paddedOnlyAlongWindows(Node input, List<Role> roles, int windowCount) {
        if (input.op() != Op.PAD) {
            return false;
        }
        PadArgument pad = (PadArgument) input.argument();
        boolean[] windowed = new boolean[input.rank()];
        for (int i = 0; i < windowCount; i++) {
            windowed[inputAxis(roles, i)] = true;
        }
        for (int axis = 0; axis < input.rank(); axis++) {
            if (!windowed[axis] && (pad.before()[axis] != 0 || pad.after()[axis] != 0)) {
                return false;
            }
        }
        return true;
    }

    /** The input axis window i slides over. */
    private static int inputAxis(List<Role> roles, int window) {
        for (int j = 0; j < roles.size(); j++) {
            if (roles.get(j).kind() == Kind.POSITION && roles.get(j).index() == window) {
                return inputAxisOfPosition(roles, j);
            }
        }
        throw new IllegalStateException("no position axis for window " + window);
    }

    /** The roles of the top window's axes: the input's axes, with each window's axis split into position and kernel. */
    private static List<Role> windowRoles(Node input, List<Node> windows) {
        List<Role> roles = new ArrayList<>();
        for (int j = 0; j < input.rank(); j++) {
            roles.add(new Role(Kind.INPUT, j));
        }
        for (int i = windows.size() - 1; i >= 0; i--) { // innermost window first
            int axis = ((WindowArgument) windows.get(i).argument()).axis();
            roles.set(axis, new Role(Kind.POSITION, i));
            roles.add(axis + 1, new Role(Kind.KERNEL, i));
        }
        return roles;
    }

    /**
     * Follows the top window's axes up through permutes, unit reshapes and an expand.
     *
     * @return per axis of the contraction's operand, the window axis it is (or −1 for a unit or
     *         broadcast axis), or null if some view does more than move and add unit axes
     */
    private static int[] alignedLabels(int rank, Node top, List<Node> views) {
        int[] labels = java.util.stream.IntStream.range(0, rank).toArray();
        int[] shape = top.shape();
        for (int v = views.size() - 1; v >= 0; v--) {
            Node view = views.get(v);
            int[] next = view.shape();
            switch (view.op()) {
                case PERMUTE -> {
                    int[] order = ((PermuteArgument) view.argument()).order();
                    int[] moved = new int[order.length];
                    for (int k = 0; k < order.length; k++) {
                        moved[k] = labels[order[k]];
                    }
                    labels = moved;
                }
                case RESHAPE -> {
                    labels = unitReshape(labels, shape, next);
                    if (labels == null) {
                        return null;
                    }
                }
                default -> { // EXPAND: only length-1 axes without a window role may stretch
                    for (int k = 0; k < next.length; k++) {
                        if (shape[k] != next[k] && labels[k] >= 0) {
                            return null;
                        }
                    }
                }
            }
            shape = next;
        }
        return labels;
    }

    private static int[] unitReshape(int[] labels, int[] from, int[] to) {
        int[] result = new int[to.length];
        int source = 0;
        for (int k = 0; k < to.length; k++) {
            if (to[k] == 1) {
                result[k] = -1;
                continue;
            }
            while (source < from.length && from[source] == 1) {
                source++;
            }
            if (source >= from.length || from[source] != to[k]) {
                return null;
            }
            result[k] = labels[source++];
        }
        return result;
    }

    /** Along a position axis: stride s spread (zeros between) and d·(K − 1) padding, to the input length plus d·(K − 1). */
    private static Tensor spreadAndPad(Tensor g, WindowArgument window, int length, int position) {
        Tensor spread = WindowGradient.dilate(g, position, window.stride());
        int[] before = new int[spread.rank()];
        int[] after = new int[spread.rank()];
        before[position] = window.dilation() * (window.kernelLength() - 1);
        after[position] = length - (window.outLength() - 1) * window.stride() - 1;
        return spread.pad(before, after, 0.0);
    }

    /**
     * g'[.., p, .., k, ..] = padded[.., p + d·(K − 1 − k), ..]: a dilation-d window of length K over
     * the padded cotangent, flipped along k, the kernel axis taking the place of the cotangent's
     * length-1 kernel axis.
     */
    private static Tensor flippedWindow(Tensor padded, WindowArgument window, int length, int position, int kernel) {
        Tensor squeezed = padded.squeeze(kernel);
        int at = position - (kernel < position ? 1 : 0);
        WindowArgument transposed = new WindowArgument(at, length, window.kernelLength(), 1, window.dilation());
        Tensor windowed = TensorInternals.apply(Op.WINDOW, squeezed.dtype(), transposed.shapeAfter(squeezed.shape()),
                transposed, squeezed).flip(at + 1);
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < windowed.rank(); k++) {
            if (k != at + 1) {
                order.add(k);
            }
        }
        order.add(kernel, at + 1);
        return windowed.permute(order.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * The axes of the contraction's operands in the input's layout: the input's axes (positions
     * standing for the axes they slide over) in its order, then the rest (unit and kernel axes).
     */
    private static int[] inputOrder(Node input, List<Role> roles, int[] labels, int[] positionAxis) {
        int rank = labels.length;
        int[] axisOfInput = new int[input.rank()];
        Arrays.fill(axisOfInput, -1);
        for (int f = 0; f < rank; f++) {
            if (labels[f] >= 0 && roles.get(labels[f]).kind() == Kind.INPUT) {
                axisOfInput[roles.get(labels[f]).index()] = f;
            }
        }
        for (int i = 0; i < positionAxis.length; i++) {
            axisOfInput[inputAxis(roles, i)] = positionAxis[i];
        }
        List<Integer> order = new ArrayList<>();
        for (int f : axisOfInput) {
            if (f >= 0) {
                order.add(f);
            }
        }
        for (int f = 0; f < rank; f++) {
            if (!order.contains(f)) {
                order.add(f);
            }
        }
        return order.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The input axis a window's position axis stands in for: its index among the input-or-position axes. */
    private static int inputAxisOfPosition(List<Role> roles, int positionIndex) {
        int axis = 0;
        for (int j = 0; j < positionIndex; j++) {
            if (roles.get(j).kind() != Kind.KERNEL) {
                axis++;
            }
        }
        return axis;
    }
}
