package dev.ein4j.cpu.tile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.kernel.HostData;
import org.junit.jupiter.api.Test;

class TilesTest {

    /** Rows below and above {@link Tiles#SHORT_ROW} (element loop, array copies), strides 0, 1 and 3. */
    @Test
    void gatheredRowsHoldTheElementsAtTheirBasesAndStrides() {
        float[] source = new float[1000];
        for (int i = 0; i < source.length; i++) {
            source[i] = i;
        }
        HostData data = new HostData.Float32(source);
        for (int length : new int[] {1, 2, 3, Tiles.SHORT_ROW - 1, Tiles.SHORT_ROW, 20}) {
            for (long stride : new long[] {0, 1, 3}) {
                int rows = 5;
                long[] bases = {7, 100, 3, 400, 250, 600, 50};
                int first = 1;
                int start = 2;
                float[] tile = new float[rows * length];
                Tiles.gatherRows(data, tile, rows, length, bases, first, start, stride);
                for (int r = 0; r < rows; r++) {
                    for (int j = 0; j < length; j++) {
                        assertThat(tile[r * length + j]).as("length %d stride %d row %d element %d", length, stride, r, j)
                                .isEqualTo((float) (bases[first + r] + (start + j) * stride));
                    }
                }
            }
        }
    }
}
