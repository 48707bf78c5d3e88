package dev.ein4j.runtime;

import dev.ein4j.ir.Node;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import java.util.List;
import java.util.TreeSet;

/**
 * How a kernel's reads become views of their buffers ({@link #follow}), and the shape an elementwise
 * kernel iterates over when its root's shape is too coarse for a read ({@link #refined}).
 * A value broadcast and then reshaped has no strided view: the pooled gradient of a 2 × 2 max pool,
 * [b, c, h, 1, w, 1] expanded to [b, c, h, 2, w, 2] and reshaped to [b, c, 2h, 2w], repeats each
 * element along both merged axes. Without help it is copied out at full size before the kernel
 * reads it. Iterating the kernel over [b, c, h, 2, w, 2] instead, which splits the root's axes
 * and so keeps its row-major memory, makes that read a view again (strides ..., 1, 0, ...) and the
 * copy disappears; every other read is reshaped to the finer shape too.
 *
 * <p>The finer shape is the common refinement of the root's shape and the shapes before each
 * read's trailing reshapes: the shape whose axis boundaries (as prefix products) are those of both.
 * {@code [6, 4]} and {@code [2, 3, 4]} refine to {@code [2, 3, 4]}; {@code [4, 6]} and {@code [6, 4]}
 * have none (24 = 4 · 6 splits at 4 and at 6, and 4 does not divide 6).
 */
final class KernelSpace {

    private KernelSpace() {
    }

    /** @return whether every move from index {@code from} on is a RESHAPE (or DETACH) */
    static boolean onlyReshapes(List<Node> moves, int from) {
        for (int i = from; i < moves.size(); i++) {
            Op op = moves.get(i).op();
            if (op != Op.RESHAPE && op != Op.DETACH) {
                return false;
            }
        }
        return true;
    }

    /** Makes data compact where a move is no view of it (the builder launches a copy kernel). */
    interface Copier {
        /** @param view the view the data is read through, copied into a compact buffer of its shape */
        void copy(View view);
    }

    /**
     * Applies a read's moves to its view, copying the data compact where a move cannot be a view; in
     * a finer space, a chain that ends in reshapes which are no view is read straight from the view
     * before them, reshaped to the space.
     *
     * @param start the view the read starts from
     * @param moves its moves to the kernel's space
     * @param space the kernel's finer space, or null for the moves' own shape
     * @param copier told of each copy, in order
     * @return the read's view (in the space when one is given), or null where it cannot be reshaped to it
     */
    static View follow(View start, List<Node> moves, int[] space, Copier copier) {
        View view = start;
        for (int i = 0; i < moves.size(); i++) {
            View next = Access.apply(moves.get(i), view);
            if (next == null && space != null && onlyReshapes(moves, i)) {
                break;
            }
            if (next == null) {
                copier.copy(view);
                view = View.contiguous(view.shape());
                next = Access.apply(moves.get(i), view);
            }
            view = next;
        }
        return space == null ? view : view.reshape(space);
    }

    /**
     * @param start the view a read starts from
     * @param moves its moves to the kernel's space
     * @return the shape before the read's trailing reshapes when one of them is no view (following
     *     the moves as {@link #follow} does), else null
     */
    static int[] beforeUnviewableReshapes(View start, List<Node> moves) {
        View view = start;
        for (int i = 0; i < moves.size(); i++) {
            View next = Access.apply(moves.get(i), view);
            if (next == null && onlyReshapes(moves, i)) {
                return view.shape();
            }
            view = next != null ? next : Access.apply(moves.get(i), View.contiguous(view.shape()));
        }
        return null;
    }

    /**
     * @param root the kernel's root shape
     * @param starts the views its reads start from
     * @param paths each read's moves
     * @param generated the views of its generators
     * @return the finer space the kernel is iterated over, or null when the root's shape serves (no
     *     read needs a finer one) or some read or generator cannot be reshaped to it
     */
    static int[] refined(int[] root, List<View> starts, List<List<Node>> paths, List<View> generated) {
        int[] space = root;
        boolean finer = false;
        for (int k = 0; k < starts.size() && space != null; k++) {
            int[] split = beforeUnviewableReshapes(starts.get(k), paths.get(k));
            if (split != null) {
                space = commonRefinement(space, split);
                finer = true;
            }
        }
        if (!finer || space == null) {
            return null;
        }
        for (int k = 0; k < starts.size(); k++) {
            if (follow(starts.get(k), paths.get(k), space, view -> { }) == null) {
                return null;
            }
        }
        for (View view : generated) {
            if (view.reshape(space) == null) {
                return null;
            }
        }
        return space;
    }

    /**
     * @param a a shape
     * @param b a shape of the same number of elements
     * @return the coarsest shape that both split into by axis (size-1 axes dropped), or null if none
     */
    static int[] commonRefinement(int[] a, int[] b) {
        long size = dev.ein4j.ir.Shapes.size(a);
        if (size == 0 || size != dev.ein4j.ir.Shapes.size(b)) {
            return null;
        }
        TreeSet<Long> boundaries = new TreeSet<>();
        addBoundaries(a, boundaries);
        addBoundaries(b, boundaries);
        if (boundaries.isEmpty()) {
            return null; // one element: nothing to refine
        }
        int[] shape = new int[boundaries.size()];
        long previous = 1;
        int k = 0;
        for (long boundary : boundaries) {
            if (boundary % previous != 0) {
                return null;
            }
            shape[k++] = (int) (boundary / previous);
            previous = boundary;
        }
        return shape;
    }

    /** The prefix products of a shape's axes, the last included (a size-1 axis adds none). */
    private static void addBoundaries(int[] shape, TreeSet<Long> boundaries) {
        long product = 1;
        for (int length : shape) {
            product *= length;
            if (length != 1) {
                boundaries.add(product);
            }
        }
    }
}
