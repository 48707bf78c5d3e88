package dev.ein4j.ir;

/**
 * CONST's argument: the value of every element (rounded to the node's type when computed). Not
 * part of a schedule's structure: kernels read it as a parameter.
 *
 * @param value the value
 */
public record ConstantArgument(double value) implements OpArgument {

    @Override
    public void encodeStructure(StructureSink sink) {
        // a parameter of the kernels, not structure
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ConstantArgument that && Double.compare(value, that.value) == 0;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(value);
    }

    @Override
    public String toString() {
        return Double.toString(value);
    }
}
