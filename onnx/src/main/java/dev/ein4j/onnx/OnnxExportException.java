package dev.ein4j.onnx;

import dev.ein4j.error.EinopsException;

/**
 * A graph, model or option that cannot be exported as it is: an IR node with no ONNX translation
 * (random numbers in a training-mode call, a length or constant that changes with a dynamic batch
 * size), a model in training mode, sample inputs or names that do not fit. Thrown before anything
 * is written. The message names the node (its primitive, shape and type, the nodes it reads and the
 * output it feeds) or the option at fault:
 *
 * <pre>
 * RAND#812 float32[2, 128] (random numbers drawn in the traced call, e.g. dropout in training mode), which feeds output 'logits': ...
 * </pre>
 */
public class OnnxExportException extends EinopsException {

    /** @param message the complete, user-facing message */
    public OnnxExportException(String message) {
        super(message);
    }

    /**
     * @param message the complete, user-facing message
     * @param cause the lower-level failure, kept for diagnosis
     */
    public OnnxExportException(String message, Throwable cause) {
        super(message, cause);
    }
}
