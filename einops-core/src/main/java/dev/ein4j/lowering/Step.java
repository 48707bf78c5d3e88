package dev.ein4j.lowering;

import java.util.Arrays;

/**
 * One IR-level step of a lowering plan, applied to one tensor. Plans are data: the Tensor API
 * executes them, {@code explain} prints them, and nothing here computes.
 */
public sealed interface Step {

    /** @return the shape after this step */
    int[] shapeAfter();

    /** Reinterpret the elements under a new shape (RESHAPE). */
    record Reshape(int[] shape) implements Step {
        /** Copies the arrays: plans are cached and shared. */
        public Reshape {
            shape = shape.clone();
        }

        @Override
        public int[] shapeAfter() {
            return shape.clone();
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }

        @Override
        public String toString() {
            return "reshape -> " + Arrays.toString(shape);
        }
    }

    /** Reorder dimensions: output dimension k is input dimension order[k] (PERMUTE). */
    record Permute(int[] order, int[] shape) implements Step {
        /** Copies the arrays: plans are cached and shared. */
        public Permute {
            order = order.clone();
            shape = shape.clone();
        }

        @Override
        public int[] order() {
            return order.clone();
        }

        @Override
        public int[] shapeAfter() {
            return shape.clone();
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }

        @Override
        public String toString() {
            return "permute " + Arrays.toString(order) + " -> " + Arrays.toString(shape);
        }
    }

    /** Reduce the given axes away (SUM / REDUCE_MAX / PROD, then a reshape that drops them). */
    record Reduce(int[] axes, int[] shape) implements Step {
        /** Copies the arrays: plans are cached and shared. */
        public Reduce {
            axes = axes.clone();
            shape = shape.clone();
        }

        @Override
        public int[] axes() {
            return axes.clone();
        }

        @Override
        public int[] shapeAfter() {
            return shape.clone();
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }

        @Override
        public String toString() {
            return "reduce axes " + Arrays.toString(axes) + " -> " + Arrays.toString(shape);
        }
    }

    /** Broadcast length-1 dimensions to the given lengths (EXPAND). */
    record Expand(int[] shape) implements Step {
        /** Copies the arrays: plans are cached and shared. */
        public Expand {
            shape = shape.clone();
        }

        @Override
        public int[] shapeAfter() {
            return shape.clone();
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }

        @Override
        public String toString() {
            return "expand -> " + Arrays.toString(shape);
        }
    }

    /**
     * Take the diagonal of the two dimensions {@code first < second} (equal lengths n): the result
     * drops {@code second}; element (.., i, ..) is the input's (.., i, .., i, ..). Lowered as a
     * CONTRACT with an identity matrix built from IOTA and CMPEQ.
     */
    record Diagonal(int first, int second, int[] shape) implements Step {
        /** Copies the arrays: plans are cached and shared. */
        public Diagonal {
            shape = shape.clone();
        }

        @Override
        public int[] shapeAfter() {
            return shape.clone();
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }

        @Override
        public String toString() {
            return "diagonal of axes " + first + " and " + second + " -> " + Arrays.toString(shape);
        }
    }

    /**
     * Slide a window along one dimension: it becomes two, the window positions and the offsets in
     * the window (WINDOW, a view). {@code (2*h + kh)} over length 9 with kh = 3 is positions h of
     * length 4 and offsets kh of length 3, element (h, kh) reading input 2·h + kh.
     */
    record Window(dev.ein4j.ir.WindowArgument window, int[] shape) implements Step {
        /** Copies the array: plans are cached and shared. */
        public Window {
            shape = shape.clone();
        }

        @Override
        public int[] shapeAfter() {
            return shape.clone();
        }

        @Override
        public int[] shape() {
            return shape.clone();
        }

        @Override
        public String toString() {
            return "window " + window + " -> " + Arrays.toString(shape);
        }
    }
}
