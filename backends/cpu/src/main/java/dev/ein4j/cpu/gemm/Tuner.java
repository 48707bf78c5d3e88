package dev.ein4j.cpu.gemm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The choice logic of the autotune, apart from the clock: it asks {@link Trials} how long runs take and
 * picks from the medians, so that tests can hand it made-up timings.
 *
 * <ul>
 * <li>Blocks: after a warm-up, the derived blocking and its neighbours (kc and nc each halved, kept or
 * doubled: 9 points), then mc halved and doubled at the best of those, each timed {@code repeats}
 * times on the same product, in rounds that run every candidate once (a change of load then touches
 * them all alike). A neighbour replaces the one it is compared with only when its median is
 * more than {@value #MARGIN_PERCENT} % faster: a shared machine's noise must not move the choice off
 * the model.</li>
 * <li>Serial threshold: square products of the sizes in {@link #SIZES}, each on the calling thread and
 * cut over the workers, the two alternating. At the first size from which the workers win (by the same
 * margin) there and at the next size too, the threshold is set between that size's multiply-adds and
 * the previous size's (their geometric mean; half the smallest size's work when the workers win from
 * the start, the largest size's work when they never do).</li>
 * </ul>
 * A tuning whose timings were unsteady ({@link #steady()}) says more about the other programs than about
 * the machine; the caller does not use it.
 */
final class Tuner {

    /** How long runs take; seconds, as measured by the implementation's own clock. */
    interface Trials {

        /** Runs until the code timed is compiled, so that the first candidate is not penalised. */
        void warmUp();

        /**
         * @param blocking the blocks to run with
         * @return the seconds one run of the representative product took, on the calling thread
         */
        double blocked(Blocking blocking);

        /**
         * @param size m = n = k of the product
         * @return the seconds one run took on the calling thread alone
         */
        double serial(int size);

        /**
         * @param size m = n = k of the product
         * @return the seconds one run took cut over the workers
         */
        double parallel(int size);
    }

    /** Thrown by trials that ran out of their time budget: the tune is abandoned. */
    static final class OutOfTime extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OutOfTime() {
            super("the GEMM autotune ran out of time", null, false, false);
        }
    }

    /** The square sizes the serial threshold is looked for among. */
    static final int[] SIZES = {32, 48, 64, 96, 128, 192, 256, 384};

    private static final int MARGIN_PERCENT = 5;
    private static final double KEEP = 1 - MARGIN_PERCENT / 100.0;

    /**
     * The largest ratio of a median to the fastest run of the same candidate for which a tuning counts as
     * steady: a quiet core repeats a run within a few percent; above this other work was taking turns
     * with the trials, and what they found may not hold once it stops.
     */
    static final double STEADY_SPREAD = 1.25;

    private final Trials trials;
    private final int repeats;
    private double spread = 1;
    private boolean workersNeverWon;

    /**
     * @param trials the clock
     * @param repeats timed runs per candidate, at least 1; the median is compared
     */
    Tuner(Trials trials, int repeats) {
        this.trials = trials;
        this.repeats = Math.max(1, repeats);
    }

    /**
     * @param derived the blocking the cache sizes give, for the kernel the trials run
     * @param threads the workers a split call runs on; with one the threshold is not measured
     * @return the shifts that were fastest and the measured serial threshold
     */
    Tuning tune(Blocking derived, int threads) {
        trials.warmUp();
        int[] shifts = bestShifts(derived);
        double serialWork = threads > 1 ? serialThreshold() : Tuning.UNMEASURED_SERIAL_WORK;
        return new Tuning(shifts[0], shifts[1], shifts[2], serialWork);
    }

    /**
     * @return whether every blocking candidate and serial run timed so far had its median within
     *     {@link #STEADY_SPREAD} of its fastest run, and the workers won from some trial size on (the
     *     caller uses and keeps only a steady tuning). Two threads that never beat one at
     *     {@code 384³} mean other programs held the cores while the trials ran (seen on a shared
     *     2-core VM: the serial threshold cached as 384³ kept every training-step GEMM on one core)
     */
    boolean steady() {
        return spread <= STEADY_SPREAD && !workersNeverWon;
    }

    /** @return the largest median-to-fastest ratio of the candidates timed so far */
    double spread() {
        return spread;
    }

    /** @return {kcShift, ncShift, mcShift} of the fastest candidate */
    int[] bestShifts(Blocking derived) {
        List<int[]> shapes = new ArrayList<>();
        for (int kcShift = -1; kcShift <= 1; kcShift++) {
            for (int ncShift = -1; ncShift <= 1; ncShift++) {
                shapes.add(new int[] {kcShift, ncShift, 0});
            }
        }
        int[] best = fastest(derived, new int[] {0, 0, 0}, shapes);
        return fastest(derived, best, List.of(new int[] {best[0], best[1], -1}, new int[] {best[0], best[1], 1}));
    }

    /**
     * Times {@code incumbent} and the candidates in rounds (each round runs every one once, so that a
     * change of load touches all alike) and compares the medians.
     *
     * @return the candidate whose median beats the incumbent's (and every other's) by the margin, else
     *     the incumbent
     */
    private int[] fastest(Blocking derived, int[] incumbent, List<int[]> candidates) {
        List<int[]> shifts = new ArrayList<>();
        List<Blocking> blocks = new ArrayList<>();
        shifts.add(incumbent);
        blocks.add(derived.scaled(incumbent[0], incumbent[1], incumbent[2]));
        for (int[] candidate : candidates) {
            Blocking blocking = derived.scaled(candidate[0], candidate[1], candidate[2]);
            if (!blocks.contains(blocking)) {
                shifts.add(candidate);
                blocks.add(blocking);
            }
        }
        double[][] times = new double[blocks.size()][repeats];
        for (int round = 0; round < repeats; round++) {
            for (int i = 0; i < blocks.size(); i++) {
                times[i][round] = trials.blocked(blocks.get(i));
            }
        }
        int best = 0;
        double bestTime = median(times[0]);
        for (int i = 1; i < blocks.size(); i++) {
            double time = median(times[i]);
            if (time < bestTime * KEEP) {
                best = i;
                bestTime = time;
            }
        }
        return shifts.get(best);
    }

    /** @return the multiply-adds up to which the calling thread alone was as fast as the workers */
    double serialThreshold() {
        boolean previousWon = false;
        for (int i = 0; i < SIZES.length; i++) {
            int size = SIZES[i];
            double[] serial = new double[repeats];
            double[] parallel = new double[repeats];
            for (int round = 0; round < repeats; round++) {
                serial[round] = trials.serial(size);
                parallel[round] = trials.parallel(size);
            }
            // split runs jitter by the workers' wake-up even on a quiet machine: only the serial ones,
            // like the blocking trials, tell whether other programs were taking turns on the core
            boolean won = plainMedian(parallel) < median(serial) * KEEP;
            if (won && previousWon) {
                return between(i - 1);
            }
            previousWon = won;
        }
        workersNeverWon = !previousWon;
        return previousWon ? between(SIZES.length - 1) : work(SIZES[SIZES.length - 1]);
    }

    /** @return the threshold just below {@code SIZES[i]}, from which the workers won */
    private static double between(int i) {
        return i == 0 ? work(SIZES[0]) / 2 : Math.sqrt(work(SIZES[i - 1]) * work(SIZES[i]));
    }

    private static double work(int size) {
        return (double) size * size * size;
    }

    /** @return the median of the runs of one candidate, noting how far it is from the fastest */
    private double median(double[] values) {
        double median = plainMedian(values);
        double fastest = Arrays.stream(values).min().orElse(0);
        if (fastest > 0) {
            spread = Math.max(spread, median / fastest);
        }
        return median;
    }

    /** @return the median of the runs */
    private static double plainMedian(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
