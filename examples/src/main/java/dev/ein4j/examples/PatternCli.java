package dev.ein4j.examples;

import dev.ein4j.error.EinopsException;
import dev.ein4j.pattern.AxisTerm;
import dev.ein4j.pattern.Operand;
import dev.ein4j.pattern.Operation;
import dev.ein4j.pattern.ParsedPattern;
import dev.ein4j.pattern.PatternParser;
import java.util.Locale;

/**
 * Parses a pattern given on the command line and prints its canonical form and axis structure,
 * or the error with its caret:
 * {@code java -cp examples/target/ein4j-examples.jar dev.ein4j.examples.PatternCli rearrange "b (h w) -> b h w"}.
 * Operations: rearrange, reduce, repeat, einsum, numpy-einsum, pack, unpack, parse-shape.
 */
public final class PatternCli {

    private PatternCli() {
    }

    /** @param args operation and pattern */
    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: PatternCli OPERATION PATTERN   (operations: rearrange, reduce, repeat, einsum, "
                    + "numpy-einsum, pack, unpack, parse-shape)");
            System.exit(2);
        }
        Operation operation;
        try {
            operation = Operation.valueOf(args[0].toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException unknown) {
            System.err.println("unknown operation '" + args[0] + "'");
            System.exit(2);
            return;
        }
        try {
            System.out.print(describe(PatternParser.parse(operation, args[1])));
        } catch (EinopsException error) {
            System.out.println(error.getMessage());
            System.exit(1);
        }
    }

    static String describe(ParsedPattern pattern) {
        StringBuilder out = new StringBuilder("canonical: ").append(pattern).append('\n');
        for (int i = 0; i < pattern.inputs().size(); i++) {
            describe(out, "input " + i, pattern.inputs().get(i));
        }
        pattern.output().ifPresent(output -> describe(out, "output", output));
        return out.toString();
    }

    private static void describe(StringBuilder out, String label, Operand operand) {
        out.append(label).append(":\n");
        for (AxisTerm term : operand.terms()) {
            out.append(String.format("  %-14s %s (column %d)%n", term, term.getClass().getSimpleName(), term.span().column()));
        }
    }
}
