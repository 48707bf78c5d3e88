package dev.ein4j.cpu.tile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import org.junit.jupiter.api.Test;

class TileArenaTest {

    @Test
    void anArrayGivenBackIsTakenAgainForTheSameTypeAndLength() {
        TileArena arena = new TileArena(1 << 20);
        Object first = arena.take(DType.FLOAT32, 100);
        arena.give(DType.FLOAT32, first);
        assertThat(arena.keptBytes()).isEqualTo(400);
        assertThat(arena.take(DType.FLOAT64, 100)).isNotSameAs(first).isInstanceOf(double[].class);
        assertThat(arena.take(DType.FLOAT32, 99)).isNotSameAs(first);
        assertThat(arena.take(DType.FLOAT32, 100)).isSameAs(first);
        assertThat(arena.keptBytes()).isZero();
        assertThat(arena.take(DType.FLOAT32, 100)).isNotSameAs(first).isInstanceOf(float[].class);
    }

    @Test
    void arraysBeyondTheBudgetAreNotKept() {
        TileArena arena = new TileArena(1000);
        Object kept = arena.take(DType.FLOAT64, 100);
        Object dropped = arena.take(DType.FLOAT64, 100);
        arena.give(DType.FLOAT64, kept);
        arena.give(DType.FLOAT64, dropped);
        assertThat(arena.keptBytes()).isEqualTo(800);
        assertThat(arena.take(DType.FLOAT64, 100)).isSameAs(kept);
        assertThat(arena.take(DType.FLOAT64, 100)).isNotSameAs(dropped);
    }

    @Test
    void everyTypeHasItsArrayKind() {
        TileArena arena = new TileArena(1 << 20);
        assertThat(arena.take(DType.INT32, 3)).isInstanceOf(int[].class);
        assertThat(arena.take(DType.BOOL, 3)).isInstanceOf(boolean[].class);
    }

    @Test
    void theModuleTestsRunWithPoisonedArrays() {
        // the cpu module's surefire configuration sets it, so stale tiles fail the kernel tests
        assertThat(Boolean.getBoolean("ein4j.cpu.tiles.poison")).isTrue();
        TileArena arena = new TileArena(1 << 20);
        float[] tile = (float[]) arena.take(DType.FLOAT32, 4);
        arena.give(DType.FLOAT32, tile);
        assertThat(tile).containsOnly(Float.NaN);
    }
}
