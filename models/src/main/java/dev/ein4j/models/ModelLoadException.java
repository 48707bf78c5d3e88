package dev.ein4j.models;

import dev.ein4j.error.EinopsException;

/**
 * A model folder that cannot be loaded as it is: a missing or malformed {@code config.json}, an
 * architecture or a configuration value that is not supported, a weights file or index that does
 * not fit the model. The message names the file and, for configuration values, the key and the
 * value:
 *
 * <pre>
 * models/gpt2/config.json: "activation_function" is "gelu_fancy", which is not supported (supported: gelu, gelu_new, ...)
 * </pre>
 */
public class ModelLoadException extends EinopsException {

    /** @param message the complete, user-facing message */
    public ModelLoadException(String message) {
        super(message);
    }

    /**
     * @param message the complete, user-facing message
     * @param cause the lower-level failure, kept for diagnosis
     */
    public ModelLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
