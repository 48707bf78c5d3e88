package dev.ein4j.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.CounterRandom;
import dev.ein4j.runtime.Results;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.internal.TensorInternals;
import dev.ein4j.testing.CountingBackend;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BackendsTest {

    @AfterEach
    void restoreReference() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void referenceIsAvailableAndPreferredOverTheTestBackend() {
        assertThat(Backends.available()).contains(ReferenceBackend.NAME, CountingBackend.NAME);
        assertThat(Backends.available().indexOf(ReferenceBackend.NAME))
                .as("priority 0 before priority -1").isLessThan(Backends.available().indexOf(CountingBackend.NAME));
        assertThat(Backends.get(ReferenceBackend.NAME).name()).isEqualTo(ReferenceBackend.NAME);
    }

    @Test
    void useSwitchesTheCurrentBackendAndCreatesEachOnce() {
        Backend counting = Backends.use(CountingBackend.NAME);
        assertThat(counting.name()).isEqualTo(CountingBackend.NAME);
        assertThat(Backends.current()).isSameAs(counting);
        assertThat(Backends.get(CountingBackend.NAME)).isSameAs(counting);
        Tensor made = Tensor.of(new double[] {1, 2}, 2).realize();
        assertThat(Results.get(TensorInternals.node(made)).storage().backend()).isSameAs(counting);
        Backend reference = Backends.use(ReferenceBackend.NAME);
        assertThat(Backends.current()).isSameAs(reference);
        assertThat(Backends.use(ReferenceBackend.NAME)).isSameAs(reference);
        assertThat(made.add(1.0).toDoubleArray()).containsExactly(2, 3);
    }

    @Test
    void useConfiguredOrTakesTheSystemPropertyElseTheFallback() {
        String before = System.getProperty(Backends.PROPERTY);
        try {
            System.clearProperty(Backends.PROPERTY);
            if (System.getenv(Backends.ENVIRONMENT) == null) {
                assertThat(Backends.useConfiguredOr(CountingBackend.NAME).name()).isEqualTo(CountingBackend.NAME);
            }
            System.setProperty(Backends.PROPERTY, " " + ReferenceBackend.NAME + " ");
            assertThat(Backends.useConfiguredOr(CountingBackend.NAME).name()).isEqualTo(ReferenceBackend.NAME);
            assertThat(Backends.current().name()).isEqualTo(ReferenceBackend.NAME);
            assertThatThrownBy(() -> Backends.useConfiguredOr(null)).isInstanceOf(NullPointerException.class)
                    .hasMessage("fallback");
        } finally {
            if (before == null) {
                System.clearProperty(Backends.PROPERTY);
            } else {
                System.setProperty(Backends.PROPERTY, before);
            }
        }
    }

    @Test
    void anUnknownBackendIsAnEinopsExceptionListingTheAvailableOnes() {
        Backend before = Backends.current();
        Throwable thrown = catchThrowable(() -> Backends.use("nope"));
        assertThat(thrown).isInstanceOf(EinopsException.class)
                .hasMessageContaining("nope").hasMessageContaining(ReferenceBackend.NAME).hasMessageContaining(CountingBackend.NAME);
        assertThat(Backends.current()).as("a failed use changes nothing").isSameAs(before);
        assertThat(catchThrowable(() -> Backends.get("nope"))).isInstanceOf(EinopsException.class);
    }

    // ------------------------------------------------------------------ CounterRandom

    @Test
    void counterRandomIsAPureFunctionOfSeedAndIndex() {
        for (long index = 0; index < 100; index++) {
            assertThat(CounterRandom.bits(42, index)).isEqualTo(CounterRandom.bits(42, index));
            assertThat(CounterRandom.uniformFloat(42, index)).isEqualTo(CounterRandom.uniformFloat(42, index));
            assertThat(CounterRandom.uniformDouble(42, index)).isEqualTo(CounterRandom.uniformDouble(42, index));
        }
        // reading out of order gives the same values (no hidden state)
        double late = CounterRandom.uniformDouble(7, 1_000_000);
        CounterRandom.uniformDouble(7, 3);
        assertThat(CounterRandom.uniformDouble(7, 1_000_000)).isEqualTo(late);
        Set<Long> distinct = new HashSet<>();
        for (long seed = 0; seed < 50; seed++) {
            for (long index = 0; index < 50; index++) {
                distinct.add(CounterRandom.bits(seed, index));
            }
        }
        assertThat(distinct).as("no collisions among 2500 (seed, index) pairs").hasSize(2500);
    }

    @Test
    void counterRandomValuesAreInTheUnitIntervalWithTheDocumentedPrecision() {
        for (long index = 0; index < 10_000; index++) {
            double single = CounterRandom.uniformFloat(3, index);
            double dbl = CounterRandom.uniformDouble(3, index);
            assertThat(single).isGreaterThanOrEqualTo(0).isLessThan(1);
            assertThat(dbl).isGreaterThanOrEqualTo(0).isLessThan(1);
            assertThat(single * 0x1.0p24).as("a multiple of 2^-24").isEqualTo(Math.rint(single * 0x1.0p24));
            assertThat(dbl * 0x1.0p53).as("a multiple of 2^-53").isEqualTo(Math.rint(dbl * 0x1.0p53));
            assertThat((double) (float) single).as("exact in float32").isEqualTo(single);
            // both take the top bits of the same 64: the float is the double truncated to 24 bits
            assertThat(Math.floor(dbl * 0x1.0p24) * 0x1.0p-24).isEqualTo(single);
        }
    }

    @Test
    void counterRandomIsUniformAndIndependentEnough() {
        int n = 200_000;
        int bins = 20;
        int[] counts = new int[bins];
        double sum = 0;
        double lagProduct = 0;
        double previous = CounterRandom.uniformDouble(11, 0);
        int[] bitOnes = new int[64];
        for (long index = 0; index < n; index++) {
            double u = CounterRandom.uniformDouble(11, index);
            counts[(int) (u * bins)]++;
            sum += u;
            if (index > 0) {
                lagProduct += (u - 0.5) * (previous - 0.5);
            }
            previous = u;
            long bits = CounterRandom.bits(11, index);
            for (int b = 0; b < 64; b++) {
                bitOnes[b] += (int) (bits >>> b & 1);
            }
        }
        double expected = (double) n / bins;
        double chiSquare = 0;
        for (int count : counts) {
            chiSquare += (count - expected) * (count - expected) / expected;
        }
        // 19 degrees of freedom: the 99.99% quantile is about 47
        assertThat(chiSquare).as("chi-square over %d bins", bins).isLessThan(47);
        assertThat(sum / n).isBetween(0.497, 0.503);
        // serial correlation of neighbours: sd of the estimate is about 1/(12 sqrt n)
        assertThat(lagProduct / (n - 1) * 12).isBetween(-0.015, 0.015);
        for (int b = 0; b < 64; b++) {
            assertThat(bitOnes[b] / (double) n).as("bit %d", b).isBetween(0.49, 0.51);
        }
        // neighbouring seeds are uncorrelated streams
        double cross = 0;
        for (long index = 0; index < n; index++) {
            cross += (CounterRandom.uniformDouble(100, index) - 0.5) * (CounterRandom.uniformDouble(101, index) - 0.5);
        }
        assertThat(cross / n * 12).isBetween(-0.015, 0.015);
    }

    @Test
    void randTensorsFollowTheSharedDefinition() {
        Generator generator = new Generator(5);
        double[] singles = Tensor.rand(generator, DType.FLOAT32, 4, 5).toDoubleArray();
        double[] doubles = Tensor.rand(generator, DType.FLOAT64, 4, 5).toDoubleArray();
        long firstKey = CounterRandom.bits(5, 0); // draw k of a generator seeded s uses the key bits(s, k)
        long secondKey = CounterRandom.bits(5, 1);
        for (int i = 0; i < 20; i++) {
            assertThat(singles[i]).isEqualTo(CounterRandom.uniformFloat(firstKey, i));
            assertThat(doubles[i]).isEqualTo(CounterRandom.uniformDouble(secondKey, i));
        }
    }
}
