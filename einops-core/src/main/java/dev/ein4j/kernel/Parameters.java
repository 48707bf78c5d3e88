package dev.ein4j.kernel;

import java.util.Arrays;

/**
 * The values a {@link Kernel} reads at run time: one 64-bit slot per parameter, a CONST's value
 * (the bits of a double) or a RAND's seed. Values are not part of a kernel's identity, so a step
 * that only changes numbers (a learning rate, Adam's bias corrections, a dropout seed) runs the
 * same kernel, and a backend compiles it once. Immutable.
 *
 * <pre>{@code
 * Parameters.Builder builder = Parameters.builder();
 * int rate = builder.constant(0.001);     // slot 0
 * int seed = builder.seed(42L);           // slot 1
 * Parameters values = builder.build();
 * values.constant(rate);                  // 0.001
 * values.seed(seed);                      // 42
 * }</pre>
 */
public final class Parameters {

    /** No parameters. */
    public static final Parameters NONE = new Parameters(new long[0]);

    private final long[] slots;

    private Parameters(long[] slots) {
        this.slots = slots;
    }

    /** @return a builder that appends slots in order */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @param slots the raw slot values (a double's bits for constants)
     * @return the parameters, holding a copy
     */
    public static Parameters ofBits(long... slots) {
        return slots.length == 0 ? NONE : new Parameters(slots.clone());
    }

    /**
     * @param values constants, one per slot
     * @return the parameters
     */
    public static Parameters ofConstants(double... values) {
        long[] slots = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            slots[i] = Double.doubleToRawLongBits(values[i]);
        }
        return slots.length == 0 ? NONE : new Parameters(slots);
    }

    /** @return the number of slots */
    public int size() {
        return slots.length;
    }

    /**
     * @param slot a CONST's parameter slot
     * @return its value (to be rounded to the instruction's type)
     */
    public double constant(int slot) {
        return Double.longBitsToDouble(slots[slot]);
    }

    /**
     * @param slot a RAND's parameter slot
     * @return its seed
     */
    public long seed(int slot) {
        return slots[slot];
    }

    /**
     * @param slot a slot
     * @return its raw 64 bits
     */
    public long bits(int slot) {
        return slots[slot];
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Parameters that && Arrays.equals(slots, that.slots);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(slots);
    }

    @Override
    public String toString() {
        return "Parameters" + Arrays.toString(slots);
    }

    /** Appends slots in order: slot i is the i-th call. */
    public static final class Builder {
        private long[] slots = new long[8];
        private int size;

        private Builder() {
        }

        /**
         * @param value a constant
         * @return its slot
         */
        public int constant(double value) {
            return add(Double.doubleToRawLongBits(value));
        }

        /**
         * @param seed a seed
         * @return its slot
         */
        public int seed(long seed) {
            return add(seed);
        }

        private int add(long bits) {
            if (size == slots.length) {
                slots = Arrays.copyOf(slots, size * 2);
            }
            slots[size] = bits;
            return size++;
        }

        /** @return the number of slots so far */
        public int size() {
            return size;
        }

        /** @return the parameters */
        public Parameters build() {
            return size == 0 ? NONE : new Parameters(Arrays.copyOf(slots, size));
        }
    }
}
