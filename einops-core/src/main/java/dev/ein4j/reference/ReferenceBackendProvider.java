package dev.ein4j.reference;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendProvider;

/** Registers the reference interpreter; lowest priority, always available. */
public final class ReferenceBackendProvider implements BackendProvider {

    @Override
    public String name() {
        return ReferenceBackend.NAME;
    }

    @Override
    public int priority() {
        return 0;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public Backend create() {
        return new ReferenceBackend();
    }
}
