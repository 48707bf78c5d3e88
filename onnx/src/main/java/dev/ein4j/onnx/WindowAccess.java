package dev.ein4j.onnx;

import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.PadArgument;
import dev.ein4j.ir.PermuteArgument;
import dev.ein4j.ir.WindowArgument;
import java.util.ArrayList;
import java.util.List;

/**
 * How a view made by movement primitives reads a base tensor: for every dimension of the view,
 * the base axis it steps along and the step, so that view element (i₀, i₁, ...) is base element
 * Σ step·i along each axis, minus the padding. This is what proves that a contraction is a
 * convolution or a reduction a pooling: a window gives a base axis two view dimensions, the
 * output position h with step s (the stride) and the kernel offset k with step d (the dilation).
 *
 * <p>The view is built from the base upward through at most one zero (or −∞) PAD directly above
 * the base, then RESHAPEs that split or merge whole runs of one axis, PERMUTEs and WINDOWs.
 * Length-1 dimensions read nothing (axis −1).
 */
final class WindowAccess {

    private final Node base;
    private final int[] padBefore;
    private final int[] padAfter;
    private final double fill;
    private final int[] axis;
    private final long[] step;
    private final int[] length;

    private WindowAccess(Node base, int[] padBefore, int[] padAfter, double fill, int[] axis, long[] step, int[] length) {
        this.base = base;
        this.padBefore = padBefore;
        this.padAfter = padAfter;
        this.fill = fill;
        this.axis = axis;
        this.step = step;
        this.length = length;
    }

    /**
     * Every reading of a view as windows of a base, deepest base first: the node under a PAD, or
     * (without a PAD) each readable node below the last WINDOW.
     *
     * @param top the view
     * @param t the translation (which nodes are readable)
     * @return the accesses that could be built (none if the view has no WINDOW or split)
     */
    static List<WindowAccess> candidates(Node top, Translation t) {
        List<Node> path = new ArrayList<>();
        Node current = top;
        Node pad = null;
        while (true) {
            if (current.op() == Op.DETACH || current.op() == Op.CONTIGUOUS) {
                current = current.source(0); // the same values
            } else if (current.op() == Op.RESHAPE || current.op() == Op.PERMUTE || current.op() == Op.WINDOW) {
                path.add(current);
                current = current.source(0);
            } else if (current.op() == Op.PAD) {
                pad = current;
                current = current.source(0);
                break;
            } else {
                break;
            }
        }
        List<WindowAccess> accesses = new ArrayList<>();
        if (t.isReadable(current)) {
            addIfBuilt(accesses, build(current, pad, path));
        }
        if (pad == null) {
            for (int i = path.size() - 1; i > 0 && path.get(i).op() != Op.WINDOW; i--) {
                Node candidate = path.get(i);
                if (t.isReadable(candidate)) {
                    addIfBuilt(accesses, build(candidate, null, path.subList(0, i)));
                }
            }
        }
        return accesses;
    }

    private static void addIfBuilt(List<WindowAccess> accesses, WindowAccess access) {
        if (access != null) {
            accesses.add(access);
        }
    }

    /** The access of the view path[0] over base, path listing the views from the top down. */
    private static WindowAccess build(Node base, Node pad, List<Node> path) {
        int rank = base.rank();
        int[] shape = base.shape();
        int[] axis = new int[rank];
        long[] step = new long[rank];
        int[] before = new int[rank];
        int[] after = new int[rank];
        double fill = 0;
        for (int j = 0; j < rank; j++) {
            axis[j] = shape[j] == 1 ? -1 : j;
            step[j] = 1;
        }
        if (pad != null) {
            PadArgument argument = (PadArgument) pad.argument();
            before = argument.before().clone();
            after = argument.after().clone();
            fill = argument.fill();
            shape = pad.shape();
            for (int j = 0; j < rank; j++) {
                axis[j] = shape[j] == 1 ? -1 : j;
            }
        }
        WindowAccess access = new WindowAccess(base, before, after, fill, axis, step, shape);
        for (int i = path.size() - 1; i >= 0 && access != null; i--) {
            access = access.apply(path.get(i));
        }
        return access;
    }

    private WindowAccess apply(Node view) {
        return switch (view.op()) {
            case PERMUTE -> permute(((PermuteArgument) view.argument()).order());
            case WINDOW -> window((WindowArgument) view.argument());
            case RESHAPE -> reshape(view.shape());
            default -> null;
        };
    }

    private WindowAccess with(int[] newAxis, long[] newStep, int[] newLength) {
        for (int k = 0; k < newLength.length; k++) {
            if (newLength[k] == 1) {
                newAxis[k] = -1;
            }
        }
        return new WindowAccess(base, padBefore, padAfter, fill, newAxis, newStep, newLength);
    }

    private WindowAccess permute(int[] order) {
        int rank = order.length;
        int[] a = new int[rank];
        long[] s = new long[rank];
        int[] l = new int[rank];
        for (int k = 0; k < rank; k++) {
            a[k] = axis[order[k]];
            s[k] = step[order[k]];
            l[k] = length[order[k]];
        }
        return with(a, s, l);
    }

    private WindowAccess window(WindowArgument argument) {
        int w = argument.axis();
        int rank = length.length + 1;
        int[] a = new int[rank];
        long[] s = new long[rank];
        int[] l = new int[rank];
        for (int k = 0, source = 0; k < rank; k++, source++) {
            if (k == w) {
                a[k] = axis[w];
                s[k] = step[w] * argument.stride();
                l[k] = argument.outLength();
                k++;
                a[k] = axis[w];
                s[k] = step[w] * argument.dilation();
                l[k] = argument.kernelLength();
            } else {
                a[k] = axis[source];
                s[k] = step[source];
                l[k] = length[source];
            }
        }
        return with(a, s, l);
    }

    /** Splits and merges of runs of one axis; anything else (mixing axes) cannot be described. */
    private WindowAccess reshape(int[] target) {
        List<Integer> in = nonUnit(length);
        List<Integer> out = nonUnit(target);
        int[] a = new int[target.length];
        long[] s = new long[target.length];
        int i = 0;
        int o = 0;
        while (i < in.size() && o < out.size()) {
            int inDim = in.get(i);
            int outDim = out.get(o);
            if (length[inDim] == target[outDim]) {
                a[outDim] = axis[inDim];
                s[outDim] = step[inDim];
                i++;
                o++;
            } else if (length[inDim] > target[outDim]) { // split one dimension into several
                long product = 1;
                int last = o;
                while (last < out.size() && product * target[out.get(last)] <= length[inDim]) {
                    product *= target[out.get(last)];
                    last++;
                    if (product == length[inDim]) {
                        break;
                    }
                }
                if (product != length[inDim]) {
                    return null;
                }
                long running = step[inDim];
                for (int q = last - 1; q >= o; q--) {
                    a[out.get(q)] = axis[inDim];
                    s[out.get(q)] = running;
                    running *= target[out.get(q)];
                }
                i++;
                o = last;
            } else { // merge a run of dimensions of one axis, each stepping over the next
                long product = length[inDim];
                int last = i + 1;
                while (last < in.size() && product < target[outDim]) {
                    int previous = in.get(last - 1);
                    int next = in.get(last);
                    if (axis[next] != axis[previous] || step[previous] != step[next] * length[next]) {
                        return null;
                    }
                    product *= length[next];
                    last++;
                }
                if (product != target[outDim]) {
                    return null;
                }
                a[outDim] = axis[in.get(last - 1)];
                s[outDim] = step[in.get(last - 1)];
                i = last;
                o++;
            }
        }
        if (i != in.size() || o != out.size()) {
            return null;
        }
        return with(a, s, target.clone());
    }

    private static List<Integer> nonUnit(int[] lengths) {
        List<Integer> dims = new ArrayList<>();
        for (int k = 0; k < lengths.length; k++) {
            if (lengths[k] != 1) {
                dims.add(k);
            }
        }
        return dims;
    }

    /** @return the node read */
    Node base() {
        return base;
    }

    /** @return whether a PAD adds elements to the base */
    boolean isPadded() {
        for (int j = 0; j < padBefore.length; j++) {
            if (padBefore[j] != 0 || padAfter[j] != 0) {
                return true;
            }
        }
        return false;
    }

    /** @return the padding's value */
    double fill() {
        return fill;
    }

    int padBefore(int baseAxis) {
        return padBefore[baseAxis];
    }

    int padAfter(int baseAxis) {
        return padAfter[baseAxis];
    }

    /** @return the view's rank */
    int rank() {
        return length.length;
    }

    /**
     * @param baseAxis an axis of the base
     * @return the view dimensions that step along it
     */
    List<Integer> uses(int baseAxis) {
        List<Integer> uses = new ArrayList<>();
        for (int k = 0; k < axis.length; k++) {
            if (axis[k] == baseAxis) {
                uses.add(k);
            }
        }
        return uses;
    }

    /** @return the step of a view dimension along its base axis */
    long step(int dimension) {
        return step[dimension];
    }

    /** @return the length of a view dimension */
    int length(int dimension) {
        return length[dimension];
    }
}
