package dev.ein4j.ir;

/**
 * SCATTER's argument: the axis the index tensor addresses, and whether src is added to the base
 * (duplicates accumulate) or written over it.
 *
 * @param axis the scattered dimension of the base
 * @param accumulate true to add, false to write
 */
public record ScatterArgument(int axis, boolean accumulate) implements OpArgument {

    @Override
    public void encodeStructure(StructureSink sink) {
        sink.add(axis);
        sink.add(accumulate ? 1 : 0);
    }

    @Override
    public String toString() {
        return "axis " + axis + (accumulate ? " add" : " set");
    }
}
