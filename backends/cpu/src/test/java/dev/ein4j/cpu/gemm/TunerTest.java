package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The autotune's choices, from made-up timings: nothing here depends on this machine's clock. */
class TunerTest {

    private static final Blocking DERIVED = new Blocking(5, 64, 255, 512, 256);

    /** Trials that answer from cost functions and record what was asked. */
    private static final class Scripted implements Tuner.Trials {
        final ToDoubleFunction<Blocking> blocked;
        final IntToDoubleFunction serial;
        final IntToDoubleFunction parallel;
        final List<String> asked = new ArrayList<>();

        Scripted(ToDoubleFunction<Blocking> blocked, IntToDoubleFunction serial, IntToDoubleFunction parallel) {
            this.blocked = blocked;
            this.serial = serial;
            this.parallel = parallel;
        }

        @Override
        public void warmUp() {
            asked.add("warm-up");
        }

        @Override
        public double blocked(Blocking blocking) {
            asked.add("blocked " + blocking.kc() + " " + blocking.nc() + " " + blocking.mc());
            return blocked.applyAsDouble(blocking);
        }

        @Override
        public double serial(int size) {
            asked.add("serial " + size);
            return serial.applyAsDouble(size);
        }

        @Override
        public double parallel(int size) {
            asked.add("parallel " + size);
            return parallel.applyAsDouble(size);
        }
    }

    private static double cube(int size) {
        return (double) size * size * size;
    }

    @Test
    void picksTheFastestNeighbourAndThenItsBestMc() {
        // fastest at kc × 2, nc / 2, then mc × 2
        Scripted trials = new Scripted(b -> b.kc() == 512 && b.nc() == 256 ? (b.mc() == 510 ? 0.5 : 0.7) : 1.0,
                TunerTest::cube, TunerTest::cube);
        Tuning tuning = new Tuner(trials, 3).tune(DERIVED, 2);
        assertThat(tuning.kcShift()).isEqualTo(1);
        assertThat(tuning.ncShift()).isEqualTo(-1);
        assertThat(tuning.mcShift()).isEqualTo(1);
        assertThat(trials.asked.get(0)).isEqualTo("warm-up");
    }

    @Test
    void keepsTheDerivedBlocksWhenNoNeighbourIsClearlyFaster() {
        // every neighbour 3 % faster: within the margin, so the model stands
        Scripted trials = new Scripted(b -> b.equals(DERIVED) ? 1.0 : 0.97, TunerTest::cube, TunerTest::cube);
        Tuning tuning = new Tuner(trials, 3).tune(DERIVED, 2);
        assertThat(new int[] {tuning.kcShift(), tuning.ncShift(), tuning.mcShift()}).containsExactly(0, 0, 0);
    }

    @Test
    void comparesMediansSoThatOneDisturbedRunDoesNotDecide() {
        int[] calls = {0};
        // the derived blocks' runs: 1.0 except one run of 100 (the machine was busy); a neighbour's: 0.99
        Scripted trials = new Scripted(b -> {
            if (!b.equals(DERIVED)) {
                return 0.99;
            }
            return ++calls[0] == 2 ? 100 : 1.0;
        }, TunerTest::cube, TunerTest::cube);
        Tuning tuning = new Tuner(trials, 5).tune(DERIVED, 2);
        assertThat(new int[] {tuning.kcShift(), tuning.ncShift()}).containsExactly(0, 0);
    }

    @Test
    void timesTheCandidatesInRoundsAndEachDistinctBlockingOnce() {
        Scripted trials = new Scripted(b -> 1.0, TunerTest::cube, TunerTest::cube);
        new Tuner(trials, 2).bestShifts(DERIVED);
        List<String> blocked = trials.asked.stream().filter(s -> s.startsWith("blocked")).toList();
        // 9 (kc, nc) points in 2 rounds, then the incumbent and 2 mc points in 2 rounds
        assertThat(blocked).hasSize(9 * 2 + 3 * 2);
        assertThat(blocked.subList(0, 9)).doesNotHaveDuplicates().isEqualTo(blocked.subList(9, 18));
    }

    @Test
    void theSerialThresholdLiesBelowTheFirstSizeFromWhichTheWorkersWin() {
        // serial: 1 ns per multiply-add; parallel: half that plus 200 µs to wake the workers, so they win
        // by the 5 % margin above 444 000 multiply-adds (76³): at 96 and above
        Scripted trials = new Scripted(b -> 1.0, s -> cube(s) * 1e-9, s -> cube(s) * 0.5e-9 + 200e-6);
        double threshold = new Tuner(trials, 3).serialThreshold();
        assertThat(threshold).isEqualTo(Math.sqrt(cube(64) * cube(96)));
        assertThat(trials.asked).doesNotContain("serial 192", "parallel 192");
    }

    @Test
    void workersWinningFromTheStartPutTheThresholdBelowTheSmallestSize() {
        Scripted trials = new Scripted(b -> 1.0, s -> 1.0, s -> 0.5);
        assertThat(new Tuner(trials, 3).serialThreshold()).isEqualTo(cube(Tuner.SIZES[0]) / 2);
    }

    @Test
    void workersNeverWinningPutTheThresholdAtTheLargestSize() {
        Scripted trials = new Scripted(b -> 1.0, s -> 1.0, s -> 2.0);
        assertThat(new Tuner(trials, 3).serialThreshold())
                .isEqualTo(cube(Tuner.SIZES[Tuner.SIZES.length - 1]));
    }

    @Test
    void aWinAtOneSizeAloneIsNotEnough() {
        // the workers look faster at 64 only (noise), and then from 192 on
        Scripted trials = new Scripted(b -> 1.0, s -> 1.0, s -> s == 64 || s >= 192 ? 0.5 : 1.5);
        assertThat(new Tuner(trials, 3).serialThreshold()).isEqualTo(Math.sqrt(cube(128) * cube(192)));
    }

    @Test
    void oneThreadMeasuresNoThreshold() {
        Scripted trials = new Scripted(b -> 1.0, s -> 1.0, s -> 0.5);
        Tuning tuning = new Tuner(trials, 3).tune(DERIVED, 1);
        assertThat(tuning.serialWork()).isEqualTo(Tuning.UNMEASURED_SERIAL_WORK);
        assertThat(trials.asked).noneMatch(s -> s.startsWith("serial") || s.startsWith("parallel"));
    }

    @Test
    void steadyTimingsAreSteady() {
        Tuner tuner = new Tuner(new Scripted(b -> 1.0, s -> 1.0, s -> 0.6), 5);
        tuner.tune(DERIVED, 2);
        assertThat(tuner.steady()).isTrue();
        assertThat(tuner.spread()).isEqualTo(1.0);
    }

    @Test
    void workersThatNeverWinMakeTheTuningUnsteady() {
        // steady runs, but two threads slower than one even at 384³: the cores were busy elsewhere
        Tuner tuner = new Tuner(new Scripted(b -> 1.0, s -> 1.0, s -> 1.1), 5);
        tuner.tune(DERIVED, 2);
        assertThat(tuner.spread()).isEqualTo(1.0);
        assertThat(tuner.steady()).isFalse();
    }

    @Test
    void workersThatWinLateStillMakeASteadyTuning() {
        Tuner tuner = new Tuner(new Scripted(b -> 1.0, s -> 1.0, s -> s >= 256 ? 0.6 : 1.1), 5);
        tuner.tune(DERIVED, 2);
        assertThat(tuner.steady()).isTrue();
    }

    @Test
    void mostRunsOfOneCandidateSlowedMakeTheTuningUnsteady() {
        int[] calls = {0};
        // three of every five runs of the derived blocks take twice as long: the median is twice the fastest
        Scripted trials = new Scripted(b -> b.equals(DERIVED) && ++calls[0] % 5 < 2 ? 1.0 : 2.0,
                s -> 1.0, s -> 1.1);
        Tuner tuner = new Tuner(trials, 5);
        tuner.tune(DERIVED, 2);
        assertThat(tuner.steady()).isFalse();
    }
}
