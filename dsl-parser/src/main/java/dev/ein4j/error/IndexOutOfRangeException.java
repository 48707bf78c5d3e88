package dev.ein4j.error;

/**
 * An index tensor held a position outside the axis it addresses (a gather, an index_select, a
 * scatter, an embedding lookup): the message names the operation, the index, the axis and its
 * length. Raised when the kernel that reads the index runs, since the indices are data.
 */
public class IndexOutOfRangeException extends EinopsException {

    private static final long serialVersionUID = 1L;

    /**
     * @param operation what read the index ("gather", "scatter")
     * @param index the offending value
     * @param axis the addressed axis
     * @param length its length
     */
    public IndexOutOfRangeException(String operation, long index, int axis, long length) {
        super(operation + ": index " + index + " is out of range for axis " + axis + " of length " + length
                + " (indices must be in [0, " + length + "))");
    }
}
