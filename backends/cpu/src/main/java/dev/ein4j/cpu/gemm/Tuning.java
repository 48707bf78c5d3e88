package dev.ein4j.cpu.gemm;

/**
 * What {@link Tuner} found on one machine, relative to what {@link Blocking#derive} gives: each block is
 * the derived one times {@code 2^shift}, so the same correction applies to both element sizes; and the
 * number of multiply-adds up to which a call runs on the calling thread alone.
 *
 * @param kcShift the power of two the derived kc is scaled by, within ±{@value #MAX_SHIFT}
 * @param ncShift the same for nc
 * @param mcShift the same for mc
 * @param serialWork multiply-adds (batches · m · n · k) up to which a call is not split over the
 *     workers; positive and finite
 */
record Tuning(int kcShift, int ncShift, int mcShift, double serialWork) {

    /** The largest shift a tuning may hold (the tuner tries ±1). */
    static final int MAX_SHIFT = 2;

    /**
     * The serial threshold used when nothing was measured: 256³ multiply-adds (about 150 µs of one
     * core's work), below which two threads were slower than one on the 2-core VM this project is
     * measured on, where waking a parked worker takes tens of µs, and longer when other programs are
     * busy. Conservative elsewhere: a quiet many-core machine gains from splitting smaller products,
     * which is what the autotune measures.
     */
    static final double UNMEASURED_SERIAL_WORK = 256.0 * 256 * 256;

    /** The derived blocks and the unmeasured threshold: what runs with autotune switched off. */
    static final Tuning UNTUNED = new Tuning(0, 0, 0, UNMEASURED_SERIAL_WORK);

    /** Checks the ranges. */
    Tuning {
        if (Math.abs(kcShift) > MAX_SHIFT || Math.abs(ncShift) > MAX_SHIFT || Math.abs(mcShift) > MAX_SHIFT) {
            throw new IllegalArgumentException("a block shift outside ±" + MAX_SHIFT);
        }
        if (!(serialWork > 0) || Double.isInfinite(serialWork)) {
            throw new IllegalArgumentException("serial work " + serialWork + " is not a positive number");
        }
    }

    /** @return {@code derived} scaled by this tuning's shifts */
    Blocking apply(Blocking derived) {
        return derived.scaled(kcShift, ncShift, mcShift);
    }
}
