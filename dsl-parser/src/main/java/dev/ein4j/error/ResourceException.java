package dev.ein4j.error;

/** The machine (memory, a device) cannot do what was asked; the message says what was asked and what is in use. */
public class ResourceException extends EinopsException {

    private static final long serialVersionUID = 1L;

    /** @param message the complete message */
    public ResourceException(String message) {
        super(message);
    }

    /**
     * @param message the complete message
     * @param cause the lower-level failure
     */
    public ResourceException(String message, Throwable cause) {
        super(message, cause);
    }
}
