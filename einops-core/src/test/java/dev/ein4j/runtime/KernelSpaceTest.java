package dev.ein4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The common refinement of two shapes: a table. */
class KernelSpaceTest {

    static Stream<Arguments> refinements() {
        return Stream.of(
                Arguments.of(new int[] {128, 32, 28, 28}, new int[] {128, 32, 14, 2, 14, 2}, new int[] {128, 32, 14, 2, 14, 2}),
                Arguments.of(new int[] {6, 4}, new int[] {2, 3, 4}, new int[] {2, 3, 4}),
                Arguments.of(new int[] {2, 3, 4}, new int[] {6, 4}, new int[] {2, 3, 4}),
                Arguments.of(new int[] {6, 10}, new int[] {2, 30}, new int[] {2, 3, 10}),
                Arguments.of(new int[] {4, 1, 6}, new int[] {24}, new int[] {4, 6}),
                Arguments.of(new int[] {4, 6}, new int[] {6, 4}, null),
                Arguments.of(new int[] {4, 6}, new int[] {25}, null),
                Arguments.of(new int[] {0, 3}, new int[] {3, 0}, null),
                Arguments.of(new int[] {1, 1}, new int[] {1}, null));
    }

    @ParameterizedTest
    @MethodSource("refinements")
    void refinesBothShapes(int[] a, int[] b, int[] expected) {
        assertThat(KernelSpace.commonRefinement(a, b)).isEqualTo(expected);
    }
}
