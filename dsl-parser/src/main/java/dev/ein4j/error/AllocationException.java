package dev.ein4j.error;

/**
 * A backend could not allocate a buffer, even after giving back the memory it pools: the message
 * states the bytes asked for, the bytes the runtime's live tensors hold, the backend's limit, and
 * the largest live tensors, so that the tensor that should have been closed can be found.
 */
public class AllocationException extends ResourceException {

    private static final long serialVersionUID = 1L;

    private final long requestedBytes;
    private final long liveBytes;

    /**
     * @param message the complete message
     * @param requestedBytes the bytes asked for
     * @param liveBytes the bytes held by live tensors on that backend
     * @param cause the backend's failure
     */
    public AllocationException(String message, long requestedBytes, long liveBytes, Throwable cause) {
        super(message, cause);
        this.requestedBytes = requestedBytes;
        this.liveBytes = liveBytes;
    }

    /** @return the bytes asked for */
    public long requestedBytes() {
        return requestedBytes;
    }

    /** @return the bytes held by live tensors on the backend when it failed */
    public long liveBytes() {
        return liveBytes;
    }
}
