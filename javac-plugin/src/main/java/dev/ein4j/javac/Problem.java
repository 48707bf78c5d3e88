package dev.ein4j.javac;

/**
 * What the library would reject in a call, and where.
 *
 * @param argument the index of the argument at fault
 * @param column the 1-based column in that argument's value of the offending character, 0 for none
 * @param message the library's message, its first line (without the pattern and caret)
 */
record Problem(int argument, int column, String message) {
}
