package dev.ein4j.backend;

/**
 * Thrown by {@link Backend#allocate} when the backend cannot hold another buffer. The runtime
 * catches it: it trims the backend's pools, retries once, and otherwise reports the failure to the
 * user as a {@code dev.ein4j.error.AllocationException} naming the bytes asked for, the bytes live
 * and the largest live tensors. Never reaches user code.
 */
public final class DeviceMemoryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what the backend could not allocate and why
     * @param cause the underlying failure (an OutOfMemoryError, an OpenCL error), or null
     */
    public DeviceMemoryException(String message, Throwable cause) {
        super(message, cause);
    }
}
