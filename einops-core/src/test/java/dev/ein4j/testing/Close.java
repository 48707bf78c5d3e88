package dev.ein4j.testing;

import static org.assertj.core.api.Assertions.fail;

import java.util.Arrays;

/** Element-wise comparison with tolerance; NaN equals NaN, infinities must match exactly. */
public final class Close {

    private Close() {
    }

    public static boolean close(double actual, double expected, double relative, double absolute) {
        if (Double.isNaN(expected) || Double.isNaN(actual)) {
            return Double.isNaN(expected) && Double.isNaN(actual);
        }
        if (Double.isInfinite(expected) || Double.isInfinite(actual)) {
            return actual == expected;
        }
        return Math.abs(actual - expected) <= absolute + relative * Math.abs(expected);
    }

    public static void assertClose(String what, double[] actual, double[] expected, double relative, double absolute) {
        if (actual.length != expected.length) {
            fail(what + ": length " + actual.length + " but expected " + expected.length);
        }
        for (int i = 0; i < actual.length; i++) {
            if (!close(actual[i], expected[i], relative, absolute)) {
                fail(what + ": element " + i + " is " + actual[i] + " but expected " + expected[i]
                        + (actual.length <= 64 ? "\n actual   " + Arrays.toString(actual) + "\n expected " + Arrays.toString(expected) : ""));
            }
        }
    }

    public static void assertExact(String what, double[] actual, double[] expected) {
        assertClose(what, actual, expected, 0.0, 0.0);
    }
}
