package dev.ein4j.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.ir.DType;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.testing.RandomGraphs;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The CPU backend against the reference interpreter on random programs (every kernel shape, every
 * type, strided, broadcast, flipped and padded views). Integer and bool results must match exactly.
 * Floats are compared loosely on purpose: the CPU accumulates float32 contractions in float32 (as
 * BLAS does) and its float32 exp, log and sin may differ by an ulp, and the random programs can
 * amplify that (sin of a product in the thousands); a wrong element or a pad read by mistake is
 * off by far more.
 */
class CrossBackendFuzzTest {

    @AfterEach
    void restore() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void randomProgramsAgreeWithTheReference() {
        for (int graph = 0; graph < 400; graph++) {
            long seed = 31_000 + graph;
            Backends.use(ReferenceBackend.NAME);
            List<Tensor> expected = RandomGraphs.build(seed);
            Tensor.realizeAll(expected.toArray(Tensor[]::new));
            Backends.use(CpuBackend.NAME);
            List<Tensor> actual = RandomGraphs.build(seed);
            Tensor.realizeAll(actual.toArray(Tensor[]::new));
            for (int t = 0; t < expected.size(); t++) {
                compare("graph " + graph + " target " + t, expected.get(t), actual.get(t));
            }
        }
    }

    static void compare(String what, Tensor expected, Tensor actual) {
        assertThat(actual.shape()).as(what).isEqualTo(expected.shape());
        assertThat(actual.dtype()).as(what).isEqualTo(expected.dtype());
        double[] x = expected.toDoubleArray();
        double[] y = actual.toDoubleArray();
        boolean exact = !expected.dtype().isFloating();
        double rtol = expected.dtype() == DType.FLOAT32 ? 2e-3 : 1e-7;
        for (int i = 0; i < x.length; i++) {
            boolean same = Double.isNaN(x[i]) ? Double.isNaN(y[i]) : exact ? x[i] == y[i]
                    : Double.isInfinite(x[i]) ? x[i] == y[i] : Math.abs(x[i] - y[i]) <= rtol * (1 + Math.abs(x[i]));
            if (!same) {
                throw new AssertionError(what + " element " + i + ": reference " + x[i] + ", cpu " + y[i]);
            }
        }
    }
}
