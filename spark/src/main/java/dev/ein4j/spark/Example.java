package dev.ein4j.spark;

import java.io.Serializable;

/**
 * One decoded row: its index in the data set's order, its input and its target (class indices or
 * values, one of the two null), checked against the declared shapes by {@link ExampleColumns}.
 *
 * @param index the row's index in the data set's order, from 0
 * @param input the input's elements, row-major
 * @param classes the target's class indices, or null for a floating target
 * @param values the target's values, or null for an integer target
 */
record Example(long index, float[] input, int[] classes, float[] values) implements Serializable {
}
