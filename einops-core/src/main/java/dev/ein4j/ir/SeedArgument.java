package dev.ein4j.ir;

/**
 * RAND's argument: the key of the counter-based stream ({@code CounterRandom}). Not part of a
 * schedule's structure: kernels read it as a parameter, so each dropout step's new seed replays
 * the same kernels.
 *
 * @param seed the key
 */
public record SeedArgument(long seed) implements OpArgument {

    @Override
    public void encodeStructure(StructureSink sink) {
        // a parameter of the kernels, not structure
    }

    @Override
    public String toString() {
        return "seed " + seed;
    }
}
