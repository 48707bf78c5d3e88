package dev.ein4j.error;

/**
 * Root of every exception that ein4j throws on purpose.
 *
 * <p>Bad input never surfaces as a {@code NullPointerException}, an {@code IndexOutOfBoundsException}
 * or an exception of a third-party library: it is reported as one of the subclasses, whose messages
 * name the problem in words and, where a pattern is involved, point at the offending term.
 *
 * <ul>
 *   <li>{@link PatternSyntaxException}: the pattern itself is malformed, whatever the inputs.</li>
 *   <li>{@link ShapeException}: a well-formed pattern or operation that does not fit the shapes or
 *       axis lengths it was given.</li>
 *   <li>{@link ClosedTensorException}: a tensor used after it was closed (or its scope ended).</li>
 *   <li>{@link ResourceException}: the machine ran out of something, e.g. {@link AllocationException}
 *       when a backend cannot hold another buffer.</li>
 * </ul>
 */
public class EinopsException extends RuntimeException {

    /** @param message the complete, user-facing message */
    public EinopsException(String message) {
        super(message);
    }

    /**
     * @param message the complete, user-facing message
     * @param cause the lower-level failure, kept for diagnosis
     */
    public EinopsException(String message, Throwable cause) {
        super(message, cause);
    }
}
