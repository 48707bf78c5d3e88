package dev.ein4j.cpu.tile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.cpu.WorkerPool;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.HostData;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which copies go in tiles, and both orientations of a tile (the strided side read or written)
 * against element-by-element index arithmetic. The values through whole kernels are in CopiesTest.
 */
class TransposedCopyTest {

    private static Space copySpace(View source, int[] shape) {
        return Space.plain(shape, List.of(source), List.of(Shapes.contiguousStrides(shape)), true);
    }

    @Test
    void transposesGoInTilesAndOtherCopiesDoNot() {
        View image = View.contiguous(new int[] {2, 64, 30, 30});
        assertThat(TransposedCopy.of(copySpace(image.permute(new int[] {0, 2, 3, 1}), new int[] {2, 30, 30, 64}), 4))
                .as("b c h w -> b h w c").isNotNull();
        assertThat(TransposedCopy.of(copySpace(View.contiguous(new int[] {1000, 37}).permute(new int[] {1, 0}), new int[] {37, 1000}), 8))
                .as("a matrix transposed, float64").isNotNull();
        assertThat(TransposedCopy.of(copySpace(image, new int[] {2, 64, 30, 30}), 4)).as("a contiguous copy").isNull();
        assertThat(TransposedCopy.of(copySpace(View.contiguous(new int[] {64, 1}).expand(new int[] {64, 500}), new int[] {64, 500}), 4))
                .as("a broadcast").isNull();
        View interleaved = View.contiguous(new int[] {100, 100, 3}).permute(new int[] {2, 0, 1});
        assertThat(TransposedCopy.of(copySpace(interleaved, new int[] {3, 100, 100}), 4))
                .as("rows at a stride of 3, under a cache line: each line is reused within the row").isNull();
        View padded = View.contiguous(new int[] {64, 40}).permute(new int[] {1, 0}).pad(new int[] {1, 0}, new int[] {1, 0}, 0.0);
        assertThat(TransposedCopy.of(copySpace(padded, new int[] {42, 64}), 4)).as("a masked source").isNull();
    }

    @Test
    void tilesReadTheStridedSideOrWriteIt() {
        int rows = 77;
        int columns = 130;
        float[] values = new float[rows * columns];
        for (int i = 0; i < values.length; i++) {
            values[i] = i;
        }
        // the source read contiguously, the output written transposed: rows of the space strided on the output's side
        Space writes = Space.plain(new int[] {rows, columns}, List.of(View.contiguous(new int[] {rows, columns})),
                List.of(new long[] {1, rows}), false);
        // the output written contiguously, the source read transposed
        Space reads = Space.plain(new int[] {columns, rows}, List.of(View.contiguous(new int[] {rows, columns}).permute(new int[] {1, 0})),
                List.of(new long[] {rows, 1}), false);
        for (Space space : List.of(writes, reads)) {
            TransposedCopy copy = TransposedCopy.of(space, 4);
            assertThat(copy).isNotNull();
            float[] out = new float[values.length];
            java.util.Arrays.fill(out, Float.NaN);
            copy.run(new HostData.Float32(values), new HostData.Float32(out), WorkerPool.shared());
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < columns; c++) {
                    assertThat(out[c * rows + r]).as("element (%d, %d)", r, c).isEqualTo(values[r * columns + c]);
                }
            }
        }
    }
}
