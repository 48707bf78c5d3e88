package dev.ein4j.cpu;

import dev.ein4j.backend.Backends;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.testing.Agreement;
import dev.ein4j.testing.KernelCases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The CPU backend against the reference interpreter on 400 random programs (every kernel shape, every
 * type, strided, broadcast, flipped and padded views), compared as {@link Agreement#compare} does.
 */
class CrossBackendFuzzTest {

    @AfterEach
    void restore() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void randomProgramsAgreeWithTheReference() {
        Agreement.randomGraphsAgree(CpuBackend.NAME, 400);
    }

    @Test
    void kernelsWithParametersSeveralOutputsAndReplicasAgreeWithTheInterpreter() {
        KernelCases.assertAll(Backends.get(CpuBackend.NAME));
    }
}
