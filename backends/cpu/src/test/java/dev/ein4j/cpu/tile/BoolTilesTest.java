package dev.ein4j.cpu.tile;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Bool buffers (one byte per element, any non-zero byte true) into tiles and back, at offsets and over vector tails. */
class BoolTilesTest {

    @Test
    void bytesBecomeBooleansAndBooleansBecomeZeroOrOne() {
        TileOps ops = TileOps.get();
        Random random = new Random(5);
        for (int n : new int[] {0, 1, 15, 63, 64, 65, 130, 2048}) {
            byte[] source = new byte[n + 9];
            for (int i = 0; i < source.length; i++) {
                source[i] = (byte) (random.nextInt(3) == 0 ? random.nextInt(255) - 127 : 0);
            }
            boolean[] tile = new boolean[n + 4];
            ops.toBooleans(source, 7, tile, 3, n);
            byte[] back = new byte[n + 11];
            java.util.Arrays.fill(back, (byte) 9);
            ops.toBytes(tile, 3, back, 5, n);
            for (int j = 0; j < n; j++) {
                assertThat(tile[3 + j]).as("%s, n %d, element %d", ops.kind(), n, j).isEqualTo(source[7 + j] != 0);
                assertThat(back[5 + j]).as("%s, n %d, element %d", ops.kind(), n, j).isEqualTo((byte) (source[7 + j] != 0 ? 1 : 0));
            }
            assertThat(back[4]).as("before the range").isEqualTo((byte) 9);
            assertThat(back[5 + n]).as("after the range").isEqualTo((byte) 9);
        }
    }
}
