package dev.ein4j.opencl.codegen;

/**
 * A kernel this generator does not compile (a program shape it does not expect); the backend then
 * runs it on the interpreter instead.
 */
public final class UnsupportedKernelException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what is not supported */
    public UnsupportedKernelException(String message) {
        super(message);
    }
}
