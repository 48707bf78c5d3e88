package dev.ein4j.spark;

import dev.ein4j.error.EinopsException;

/**
 * A data set's columns or one of its rows cannot be read as a training example: a column is missing
 * or of an unusable type, or a row holds a null, the wrong number of elements for the declared
 * shape, or a class index that does not fit int32. The message names the row, the column and the
 * data set's columns with their types.
 *
 * <pre>{@code
 * // row 17: column 'features' has 783 numbers, but the input shape [1, 28, 28] needs 784
 * //   (columns: features array<float>, label int)
 * }</pre>
 */
public class RowFormatException extends EinopsException {

    private static final long serialVersionUID = 1L;

    private final long row;
    private final String column;

    /**
     * @param message the complete, user-facing message
     * @param row the row's index in the data set's order (from 0), or -1 for a problem of the schema
     * @param column the column at fault
     */
    public RowFormatException(String message, long row, String column) {
        super(message);
        this.row = row;
        this.column = column;
    }

    /** @return the row's index in the data set's order (from 0), or -1 when the schema itself is at fault */
    public long row() {
        return row;
    }

    /** @return the column at fault */
    public String column() {
        return column;
    }
}
