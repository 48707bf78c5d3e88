package dev.ein4j.kernel;

import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.testing.KernelCases;
import org.junit.jupiter.api.Test;

/** Runtime v3's kernel shapes on the reference backend through the SPI, against the interpreter on host arrays. */
class KernelCasesTest {

    @Test
    void parametersOutputsReductionsAndReplicasOnTheReferenceBackend() {
        KernelCases.assertAll(new ReferenceBackend());
    }
}
