package dev.ein4j.cpu;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.BackendProvider;

/** Registers the CPU backend, preferred over the reference interpreter; always available. */
public final class CpuBackendProvider implements BackendProvider {

    @Override
    public String name() {
        return CpuBackend.NAME;
    }

    @Override
    public int priority() {
        return 10;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public Backend create() {
        return new CpuBackend();
    }
}
