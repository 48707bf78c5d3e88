package dev.ein4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.ir.View;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which reads keep to their row ({@link RowGroups#rowLocal}) and which schedules hold row-local runs. */
class RowGroupsTest {

    static Stream<Arguments> views() {
        View rows = View.contiguous(new int[] {4, 6});
        return Stream.of(
            // a row's maximum broadcast over the row: value [4, 1] read as [4, 6]:(1, 0)
            Arguments.of("a reduction broadcast over its row", View.contiguous(new int[] {4, 1}).expand(new int[] {4, 6}), 1, 4, true),
            Arguments.of("the same rows, elementwise", rows, 6, 4, true),
            Arguments.of("rows of a 3-d iteration space", View.contiguous(new int[] {2, 2, 6}), 6, 4, true),
            Arguments.of("row counts that are no leading product", rows, 3, 8, false),
            Arguments.of("a transposed read", View.contiguous(new int[] {6, 4}).permute(new int[] {1, 0}), 6, 4, false),
            Arguments.of("a flipped row stays in its row", rows.flip(new boolean[] {false, true}), 6, 4, true),
            Arguments.of("flipped rows read another row", rows.flip(new boolean[] {true, false}), 6, 4, false),
            Arguments.of("a slice within each row", View.contiguous(new int[] {4, 6}).shrink(new int[] {0, 1}, new int[] {4, 5}), 6, 4, true),
            Arguments.of("a slice of rows reads rows shifted", View.contiguous(new int[] {5, 6}).shrink(new int[] {1, 0}, new int[] {5, 6}), 6, 4, false),
            Arguments.of("padding within the row", View.contiguous(new int[] {4, 4}).pad(new int[] {0, 1}, new int[] {0, 1}, 0.0), 4, 4, true),
            Arguments.of("padding over the rows", View.contiguous(new int[] {3, 6}).pad(new int[] {1, 0}, new int[] {0, 0}, 0.0), 6, 4, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("views")
    void readsKeepToTheirRow(String name, View view, long rowSize, long rows, boolean local) {
        assertThat(RowGroups.rowLocal(view, rowSize, rows)).isEqualTo(local);
    }

    @Test
    void softmaxIsOneRowLocalRunAndAProductIsNone() {
        Backends.use(ReferenceBackend.NAME);
        Tensor x = Tensor.randn(new Generator(1), 32, 50).realize();
        assertThat(x.softmax(1).explain()).contains("kernels 1-3 share 32 rows");
        Tensor w = Tensor.randn(new Generator(2), 50, 20).realize();
        assertThat(x.matmul(w).relu().explain()).doesNotContain("share");
        // the column softmax reduces the leading axis: no rows to share
        assertThat(x.softmax(0).explain()).doesNotContain("share");
    }
}
