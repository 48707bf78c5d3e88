package dev.ein4j.spark;

import java.io.Serializable;

/**
 * One decoded row: its index in the data set's order, its input and its target (class indices or
 * values, one of the two null), checked against the declared shapes by {@link ExampleColumns}; or,
 * for a row that cannot be read, what is wrong with it (Spark does not always pass a task's
 * exception on to the driver, so the problem travels as data and the driver throws it).
 *
 * @param index the row's index in the data set's order, from 0
 * @param input the input's elements, row-major
 * @param classes the target's class indices, or null for a floating target
 * @param values the target's values, or null for an integer target
 * @param problem why the row cannot be read, or null
 */
record Example(long index, float[] input, int[] classes, float[] values, RowFormatException problem)
        implements Serializable {

    /**
     * @param problem why a row cannot be read
     * @return the unreadable row's stand-in
     */
    static Example unreadable(RowFormatException problem) {
        return new Example(problem.row(), null, null, null, problem);
    }
}
