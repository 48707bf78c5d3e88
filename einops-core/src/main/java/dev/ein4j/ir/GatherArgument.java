package dev.ein4j.ir;

/**
 * GATHER's argument: the axis the index tensor addresses.
 *
 * @param axis the gathered dimension of the source
 */
public record GatherArgument(int axis) implements OpArgument {

    @Override
    public void encodeStructure(StructureSink sink) {
        sink.add(axis);
    }

    @Override
    public String toString() {
        return "axis " + axis;
    }
}
