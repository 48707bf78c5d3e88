package dev.ein4j.testing;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendProvider;

/** Registers {@link CountingBackend} as "counting", below the reference backend so it is never the default. */
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
