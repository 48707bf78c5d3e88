package dev.ein4j.nn.io;

import dev.ein4j.error.EinopsException;

/**
 * A file or stream that is not a valid instance of its format: bad magic bytes, a malformed header,
 * a shape or data offsets that do not match the data, truncated data, an unsupported element type.
 * The readers throw it before allocating anything the header claims, so a hostile file gives this
 * exception and never an {@link OutOfMemoryError}.
 *
 * <p>The message starts with the source (a file name, or "stream") and names the problem:
 *
 * <pre>
 * weights.safetensors: tensor 'fc.weight': shape [10, 784] of F32 needs 31360 bytes but data_offsets [0, 31356] span 31356
 * </pre>
 *
 * <p>Failures of the I/O itself (a missing file, a read error) are not format errors: they are
 * thrown as {@link java.io.UncheckedIOException}.
 */
public class TensorFormatException extends EinopsException {

    /** @param message the complete, user-facing message */
    public TensorFormatException(String message) {
        super(message);
    }

    /**
     * @param message the complete, user-facing message
     * @param cause the lower-level failure, kept for diagnosis
     */
    public TensorFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
