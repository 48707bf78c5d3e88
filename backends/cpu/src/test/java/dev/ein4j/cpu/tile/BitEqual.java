package dev.ein4j.cpu.tile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;

/** Element-by-element bit equality of a kernel's output with the interpreter's. */
final class BitEqual {

    private BitEqual() {
    }

    /** @return a buffer of the type filled with a value no kernel of the tests writes, so that an element left unwritten fails */
    static HostData unwritten(DType type, int size) {
        double[] values = new double[size];
        java.util.Arrays.fill(values, 1234.5);
        return HostData.fromDoubles(type, values);
    }

    static void assertBitEqual(String what, HostData expected, HostData actual) {
        double[] x = expected.toDoubles();
        double[] y = actual.toDoubles();
        assertThat(y).as(what + ": length").hasSameSizeAs(x);
        for (int i = 0; i < x.length; i++) {
            assertThat(Double.doubleToLongBits(y[i])).as(what + " element " + i + ": " + x[i] + " vs " + y[i])
                    .isEqualTo(Double.doubleToLongBits(x[i]));
        }
    }
}
