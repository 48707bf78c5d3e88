package dev.ein4j.benchmarks;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendProvider;

/**
 * Registers {@link CountingBackend} as backend {@code "counting"}. Its priority is −1, below the
 * reference backend's 0, so it never becomes the default: it runs only when chosen by name.
 */
public final class CountingBackendProvider implements BackendProvider {

    @Override
    public String name() {
        return CountingBackend.NAME;
    }

    @Override
    public int priority() {
        return -1;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public Backend create() {
        return new CountingBackend();
    }
}
