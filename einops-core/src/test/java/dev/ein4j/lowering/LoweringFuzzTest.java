package dev.ein4j.lowering;

import static org.assertj.core.api.Assertions.fail;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Random patterns against random shapes and axis lengths: every call either succeeds with a result
 * of the shape the plan announced, or throws the library's own exception. Nothing else may escape
 * the lowering (no NullPointerException, no index or arithmetic exception).
 */
class LoweringFuzzTest {

    private static final String[] NAMES = {"a", "b", "c", "d"};
    private static final String[] TERMS = {"a", "b", "c", "d", "...", "1", "()", "2", "3", "(a b)", "(b c)", "(a 2)",
        "(c d 1)", "(...)", "(d ...)"};

    @Test
    void randomCallsSucceedOrThrowTheLibrarysException() {
        SplittableRandom random = new SplittableRandom(Long.getLong("fuzzSeed", 20261129));
        int succeeded = 0;
        for (int trial = 0; trial < Integer.getInteger("fuzzTrials", 20_000); trial++) {
            String left = side(random);
            String right = side(random);
            int[] shape = shape(random);
            Map<String, Integer> axes = axes(random);
            String call = "";
            try {
                Tensor x = Tensor.zeros(shape);
                Tensor result;
                switch (random.nextInt(6)) {
                    case 0 -> {
                        call = "rearrange";
                        result = x.rearrange(left + " -> " + right, Axes.from(axes));
                    }
                    case 1 -> {
                        call = "reduce";
                        result = x.reduce(left + " -> " + right, Reduction.values()[random.nextInt(5)], Axes.from(axes));
                    }
                    case 2 -> {
                        call = "repeat";
                        result = x.repeat(left + " -> " + right, Axes.from(axes));
                    }
                    case 3 -> {
                        call = "einsum";
                        result = Ein.einsum(left + ", " + side(random) + " -> " + right, x, Tensor.zeros(shape(random)));
                    }
                    case 4 -> {
                        call = "pack";
                        result = Ein.pack(packPattern(random), x, Tensor.zeros(shape(random))).tensor();
                    }
                    default -> {
                        call = "unpack";
                        List<int[]> parts = List.of(shape(random), shape(random));
                        result = Ein.unpack(x, parts, packPattern(random)).get(0);
                    }
                }
                if (result.toDoubleArray().length != result.size()) {
                    fail(call + " produced " + result.size() + " elements but read " + result.toDoubleArray().length);
                }
                succeeded++;
            } catch (EinopsException expected) {
                // the library's own, with a message
                if (expected.getMessage() == null || expected.getMessage().isBlank()) {
                    fail(call + " threw an EinopsException without a message");
                }
            } catch (RuntimeException | StackOverflowError escaped) {
                throw new AssertionError(call + " with left '" + left + "', right '" + right + "', shape "
                        + Arrays.toString(shape) + ", axes " + axes + " threw " + escaped, escaped);
            }
        }
        if (succeeded < 500) {
            fail("only " + succeeded + " calls succeeded: the generator no longer exercises the lowering");
        }
    }

    private static String side(SplittableRandom random) {
        List<String> terms = new ArrayList<>();
        int count = random.nextInt(5);
        for (int i = 0; i < count; i++) {
            terms.add(TERMS[random.nextInt(TERMS.length)]);
        }
        return String.join(" ", terms);
    }

    private static String packPattern(SplittableRandom random) {
        List<String> terms = new ArrayList<>(List.of(NAMES).subList(0, random.nextInt(3)));
        terms.add(random.nextInt(terms.size() + 1), "*");
        return String.join(" ", terms);
    }

    private static int[] shape(SplittableRandom random) {
        int[] shape = new int[random.nextInt(5)];
        for (int k = 0; k < shape.length; k++) {
            shape[k] = random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(6);
        }
        return shape;
    }

    private static Map<String, Integer> axes(SplittableRandom random) {
        Map<String, Integer> axes = new LinkedHashMap<>();
        for (String name : NAMES) {
            if (random.nextInt(4) == 0) {
                axes.put(name, 1 + random.nextInt(4));
            }
        }
        return axes;
    }
}
