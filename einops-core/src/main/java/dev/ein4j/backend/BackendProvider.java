package dev.ein4j.backend;

/**
 * Makes a backend known to {@link Backends} through {@link java.util.ServiceLoader}: list the
 * implementation in {@code META-INF/services/dev.ein4j.backend.BackendProvider}.
 */
public interface BackendProvider {

    /** @return the backend's name ({@code "reference"}, {@code "cpu"}, {@code "opencl"}) */
    String name();

    /** @return preference when no backend is chosen: the highest available wins */
    int priority();

    /** @return whether the backend can run here (a native library found, a device present) */
    boolean isAvailable();

    /** @return the backend; called at most once per provider */
    Backend create();
}
