package dev.ein4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.testing.CountingBackend;
import dev.ein4j.testing.RandomGraphs;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Fused kernels against one kernel per primitive, on random graphs: elementwise ops of every type,
 * comparisons, where, casts among the four types, reductions with and without epilogues,
 * contractions, and movement of every kind (views with strides 0, negative strides, masks). Both
 * round every primitive's result to its type, so the two must agree bit for bit.
 */
class FusionFuzzTest {

    @AfterEach
    void restore() {
        RuntimeContext.global().setFusion(true);
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void fusedAndPerPrimitiveExecutionAgreeOnRandomGraphs() {
        CountingBackend counting = (CountingBackend) Backends.use(CountingBackend.NAME);
        int fusedKernels = 0;
        int primitiveKernels = 0;
        for (int graph = 0; graph < 300; graph++) {
            long seed = 9_000 + graph;
            counting.reset();
            RuntimeContext.global().setFusion(true);
            List<Tensor> fused = RandomGraphs.build(seed);
            Tensor.realizeAll(fused.toArray(Tensor[]::new));
            fusedKernels += counting.kernels().size();
            counting.reset();
            RuntimeContext.global().setFusion(false);
            List<Tensor> separate = RandomGraphs.build(seed);
            Tensor.realizeAll(separate.toArray(Tensor[]::new));
            primitiveKernels += counting.kernels().size();
            RuntimeContext.global().setFusion(true);
            for (int t = 0; t < fused.size(); t++) {
                Tensor a = fused.get(t);
                Tensor b = separate.get(t);
                assertThat(a.shape()).isEqualTo(b.shape());
                assertThat(a.dtype()).isEqualTo(b.dtype());
                double[] x = a.toDoubleArray();
                double[] y = b.toDoubleArray();
                for (int i = 0; i < x.length; i++) {
                    if (!(Double.isNaN(x[i]) && Double.isNaN(y[i])) && Double.doubleToLongBits(x[i]) != Double.doubleToLongBits(y[i])) {
                        throw new AssertionError("graph " + graph + " target " + t + " element " + i + ": fused " + x[i]
                                + ", per primitive " + y[i] + "\n" + describe(seed));
                    }
                }
            }
            assertThat(counting.doubleReleases()).isZero();
        }
        assertThat(fusedKernels).as("fusion merges kernels").isLessThan(primitiveKernels / 2);
    }

    private static String describe(long seed) {
        List<Tensor> targets = RandomGraphs.build(seed);
        StringBuilder text = new StringBuilder();
        for (Tensor target : targets) {
            text.append(target.explain()).append('\n');
        }
        return text.toString();
    }
}
