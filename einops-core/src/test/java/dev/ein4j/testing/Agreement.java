package dev.ein4j.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.ir.DType;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Tensor;
import java.util.List;

/**
 * A backend against the reference interpreter, for the backends' tests. Integer and bool results
 * must match exactly; floats within 2e-3 (float32) or 1e-7 (float64) relative, since a backend may
 * accumulate float32 contractions in float32 (as BLAS does) and its float32 exp, log and sin may
 * differ by ulps that random programs amplify; a wrong element or a pad read by mistake is off by far more.
 */
public final class Agreement {

    private Agreement() {
    }

    /**
     * Builds random programs ({@link RandomGraphs}, seeds 31,000 and up) on the reference and on
     * {@code backend}, realizes each whole, and compares every target. Leaves the reference current.
     *
     * @param backend the backend's name
     * @param graphs how many programs
     */
    public static void randomGraphsAgree(String backend, int graphs) {
        try {
            for (int graph = 0; graph < graphs; graph++) {
                long seed = 31_000 + graph;
                Backends.use(ReferenceBackend.NAME);
                List<Tensor> expected = RandomGraphs.build(seed);
                Tensor.realizeAll(expected.toArray(Tensor[]::new));
                Backends.use(backend);
                List<Tensor> actual = RandomGraphs.build(seed);
                Tensor.realizeAll(actual.toArray(Tensor[]::new));
                for (int t = 0; t < expected.size(); t++) {
                    compare("graph " + graph + " target " + t + "\n" + actual.get(t).explain(), expected.get(t),
                            actual.get(t), backend);
                }
            }
        } finally {
            Backends.use(ReferenceBackend.NAME);
        }
    }

    /**
     * @param what the case, for the message
     * @param expected the reference's result
     * @param actual the backend's result
     * @param backend the backend's name, for the message
     */
    public static void compare(String what, Tensor expected, Tensor actual, String backend) {
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
                throw new AssertionError(what + " element " + i + ": reference " + x[i] + ", " + backend + " " + y[i]);
            }
        }
    }
}
