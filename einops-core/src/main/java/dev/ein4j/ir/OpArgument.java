package dev.ein4j.ir;

/**
 * What a primitive needs besides its sources: one type per kind of op, checked when a node is made
 * ({@link Op#argumentType()}). Arguments are values; their {@link #encodeStructure structure} is
 * what a realization's schedule depends on (a CONST's value and a RAND's seed are not: they are
 * parameters of the kernels, so a step that only changes numbers replays its schedule).
 */
public sealed interface OpArgument
        permits AxesArgument, PadArgument, PermuteArgument, ShrinkArgument, WindowArgument, ConstantArgument, SeedArgument,
        GatherArgument, ScatterArgument {

    /** Receives the numbers that identify an argument's structure. */
    @FunctionalInterface
    interface StructureSink {
        /** @param value the next number */
        void add(long value);
    }

    /**
     * Writes what the schedule of a graph holding this argument depends on.
     *
     * @param sink where the numbers go
     */
    void encodeStructure(StructureSink sink);

    /** Writes an int array's length and elements. */
    static void encode(int[] values, StructureSink sink) {
        sink.add(values.length);
        for (int value : values) {
            sink.add(value);
        }
    }
}
