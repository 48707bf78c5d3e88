package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.testing.Agreement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenCL backend against the reference interpreter on random programs: every kernel shape,
 * every type, strided, broadcast, flipped and padded views. Integer and bool results must match
 * exactly, floats loosely ({@link OpenCl#compare}). Every kernel must compile: none may fall back
 * to the interpreter. {@code -Dopencl.fuzz.graphs=N} runs N programs instead of 400 (the build's
 * second run, with every kernel baked, runs fewer).
 */
class CrossBackendFuzzTest {

    @AfterEach
    void restore() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void randomProgramsAgreeWithTheReference() {
        OpenClBackend opencl = OpenCl.backend();
        long interpretedBefore = opencl.interpretedRuns();
        Agreement.randomGraphsAgree(OpenClBackend.NAME, Integer.getInteger("opencl.fuzz.graphs", 400));
        assertThat(opencl.interpretedRuns() - interpretedBefore).as("kernels run on the interpreter: %s",
                opencl.interpretedKernels()).isZero();
    }
}
