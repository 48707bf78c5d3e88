package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The run lengths of offset tables, and the cost model's choice between runs and single elements. */
class RunsTest {

    @Test
    void measuresTheRunFromEachEntry() {
        Runs runs = Runs.measure(new long[] {4, 5, 6, 20, 21, 9, 7, 8});
        assertThat(runs.length).containsExactly(3, 2, 1, 2, 1, 1, 2, 1);
        assertThat(runs.mean).isEqualTo(8 / 4.0);
        assertThat(Runs.measure(new long[0]).mean).isZero();
        assertThat(Runs.measure(new long[] {3}).length).containsExactly(1);
    }

    @Test
    void runsPayOnlyWhenLongerThanEightOnAverage() {
        // a stride-1 window's positions (runs of 14), channels-last taps (kw, c: runs of 3 · 4)
        assertThat(Runs.of(Window.table(new int[] {3, 14}, new long[] {16, 1}))).isNotNull();
        assertThat(Runs.of(Window.table(new int[] {3, 3, 4}, new long[] {100, 4, 1}))).isNotNull();
        // 9 entries in one run and a lone one: a mean of 5
        assertThat(Runs.of(new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 20})).isNull();
        // stride 2, a descending (flipped) table, 3 × 3 taps, runs of exactly eight: one element at a time
        assertThat(Runs.of(Window.table(new int[] {3, 14}, new long[] {30, 2}))).isNull();
        assertThat(Runs.of(Window.table(new int[] {3, 14}, new long[] {-16, -1}))).isNull();
        assertThat(Runs.of(Window.table(new int[] {4, 3, 3}, new long[] {100, 10, 1}))).isNull();
        assertThat(Runs.of(Window.table(new int[] {3, 8}, new long[] {10, 1}))).isNull();
        assertThat(Runs.of(new long[0])).isNull();
    }

    @Test
    void viewsPackAlongTheLongerRuns() {
        long[] unit = Layout.progression(6, 1);
        long[] runsOfNine = Window.table(new int[] {2, 9}, new long[] {50, 1});
        long[] runsOfTwelve = Window.table(new int[] {2, 12}, new long[] {50, 1});
        long[] scattered = Layout.progression(6, 7);
        long[] batch = {0};
        assertThat(new View(new Operand(0, batch, runsOfTwelve, runsOfNine)).packsAlongRows).isTrue();
        assertThat(new View(new Operand(0, batch, runsOfNine, runsOfTwelve)).packsAlongRows).isFalse();
        assertThat(new View(new Operand(0, batch, runsOfNine, scattered)).packsAlongRows).isTrue();
        assertThat(new View(new Operand(0, batch, scattered, runsOfNine)).packsAlongRows).isFalse();
        // adjacent columns are copied as rows, however long the row runs
        assertThat(new View(new Operand(0, batch, Layout.progression(60, 1), unit)).packsAlongRows).isFalse();
        // adjacent rows of two are still one run each column (a transposed 2 × k operand)
        View twoRows = new View(new Operand(0, batch, Layout.progression(2, 1), scattered));
        assertThat(twoRows.packsAlongRows).isTrue();
        assertThat(new View(new Operand(0, batch, scattered, scattered)).rowRuns).isNull();
    }
}
