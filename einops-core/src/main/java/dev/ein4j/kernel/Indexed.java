package dev.ein4j.kernel;

/**
 * The argument of a GATHER or SCATTER instruction: the axis its index addresses, that axis' length
 * in the buffer read or written (indices outside [0, length) are an error), and for SCATTER whether
 * values are added (duplicates accumulate) or written.
 *
 * @param axis the addressed dimension of the iteration (GATHER) or output (SCATTER) shape
 * @param length the addressed buffer's length along it
 * @param accumulate SCATTER only: add instead of write
 */
public record Indexed(int axis, long length, boolean accumulate) {
}
