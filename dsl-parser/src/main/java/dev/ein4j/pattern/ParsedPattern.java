package dev.ein4j.pattern;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A parsed and validated pattern: its operation, input operands and output operand.
 *
 * <ul>
 *   <li>rearrange, reduce, repeat: one input (the left side) and an output (the right side);</li>
 *   <li>einsum: one input per operand and an output (for numpy notation without {@code ->}, the
 *       implicit output: letters that appear once, in alphabetical order, after the ellipsis);</li>
 *   <li>pack, unpack, parse_shape, check_shape: one input and no output.</li>
 * </ul>
 *
 * Instances are immutable; equality ignores spans and the source text, so the canonical
 * {@link #toString()} re-parses to an equal value.
 */
public final class ParsedPattern {

    private final Operation operation;
    private final String source;
    private final List<Operand> inputs;
    private final Operand output;

    /**
     * @param operation the operation the pattern was parsed for
     * @param source the pattern as written
     * @param inputs the input operands, at least one
     * @param output the output operand, or null for pack, unpack, parse_shape and check_shape
     */
    public ParsedPattern(Operation operation, String source, List<Operand> inputs, Operand output) {
        this.operation = Objects.requireNonNull(operation, "operation");
        this.source = Objects.requireNonNull(source, "source");
        this.inputs = List.copyOf(inputs);
        this.output = output;
    }

    /** @return the operation the pattern was parsed for */
    public Operation operation() {
        return operation;
    }

    /** @return the pattern exactly as written */
    public String source() {
        return source;
    }

    /** @return the input operands (the left side for arrow patterns) */
    public List<Operand> inputs() {
        return inputs;
    }

    /** @return the single input operand of rearrange, reduce, repeat, pack, unpack, parse_shape and check_shape */
    public Operand input() {
        return inputs.get(0);
    }

    /** @return the output operand; empty for pack, unpack, parse_shape and check_shape */
    public Optional<Operand> output() {
        return Optional.ofNullable(output);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ParsedPattern that && operation == that.operation
                && inputs.equals(that.inputs) && Objects.equals(output, that.output);
    }

    @Override
    public int hashCode() {
        return Objects.hash(operation, inputs, output);
    }

    /**
     * The canonical form: single spaces between terms, {@code ", "} between einsum operands,
     * {@code " -> "} around the arrow, {@code ()} for unit axes; numpy notation prints letters run
     * together with an explicit output, {@code "ij,jk->ik"}.
     */
    @Override
    public String toString() {
        if (operation == Operation.NUMPY_EINSUM) {
            return inputs.stream().map(Operand::toNumpyString).collect(Collectors.joining(","))
                    + "->" + output.toNumpyString();
        }
        String left = inputs.stream().map(Operand::toString).collect(Collectors.joining(", "));
        if (output == null) {
            return left;
        }
        String right = output.toString();
        return right.isEmpty() ? left + " ->" : left + " -> " + right;
    }
}
