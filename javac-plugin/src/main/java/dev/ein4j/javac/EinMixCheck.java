package dev.ein4j.javac;

import dev.ein4j.error.PatternSyntaxException;
import dev.ein4j.javac.PatternMethod.EinMixRule;
import dev.ein4j.pattern.Operation;
import dev.ein4j.pattern.PatternParser;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The checks that {@code dev.ein4j.nn.EinMix} makes of its pattern and axis names before any
 * input arrives, in its order: the constructor's (the form {@code left -> right} without an
 * ellipsis, bias axes among the output's), then the patterns its forward pass builds from them
 * (the contraction {@code "left, weight -> output names"}, the bias broadcast, the final
 * rearrange to the output's compositions). Those are built here exactly as the layer builds
 * them; the plugin's tests run the layer itself on every case to keep the two in step. A column
 * in a built pattern is mapped back to the argument it came from.
 */
final class EinMixCheck {

    /** A name in one side of the pattern, with where it is written. */
    private record Name(String text, int offset) {
    }

    private final EinMixRule rule;
    private final String pattern;
    private final String weightShape;
    private final String biasShape;

    /**
     * @param rule the constructor's argument indices
     * @param pattern the pattern's constant value
     * @param weightShape the weight's axis names, null when not a constant
     * @param biasShape the bias's axis names, null when absent or not a constant
     */
    EinMixCheck(EinMixRule rule, String pattern, String weightShape, String biasShape) {
        this.rule = rule;
        this.pattern = pattern;
        this.weightShape = weightShape;
        this.biasShape = biasShape;
    }

    /** @return what the layer would throw, if anything */
    Optional<Problem> check() {
        String[] sides = pattern.split("->", -1);
        if (sides.length != 2 || pattern.contains("...")) {
            return problem(rule.pattern(), 0, "EinMix needs a pattern 'left -> right' without ellipsis, got '" + pattern + "'");
        }
        List<Name> output = names(sides[1], sides[0].length() + 2);
        List<String> outputNames = output.stream().map(Name::text).toList();
        String elementaryOutput = String.join(" ", outputNames);
        String bias = biasShape == null ? "" : biasShape.trim();
        if (!bias.isEmpty()) {
            List<String> biasNames = names(bias, 0).stream().map(Name::text).toList();
            if (!outputNames.containsAll(biasNames)) {
                return problem(rule.biasShape(), 0, "EinMix: bias axes " + biasNames + " must be output axes " + outputNames);
            }
        }
        if (weightShape == null) {
            return Optional.empty(); // the contraction needs the weight's names
        }
        String left = sides[0].trim();
        String weight = weightShape.trim();
        String contraction = left + ", " + weight + " -> " + elementaryOutput;
        Optional<Problem> problem = parse(Operation.EINSUM, contraction, column -> contractionColumn(column,
                sides[0], weight, elementaryOutput, output));
        if (problem.isPresent() || !bias.isEmpty() && (problem = parse(Operation.REARRANGE,
                bias + " -> " + broadcastPattern(outputNames, bias), column -> biasColumn(column, bias))).isPresent()) {
            return problem;
        }
        String right = sides[1].trim();
        if (right.equals(elementaryOutput)) {
            return Optional.empty();
        }
        int rightStart = sides[0].length() + 2 + leadingSpaces(sides[1]);
        int arrowEnd = elementaryOutput.length() + 4;
        return parse(Operation.REARRANGE, elementaryOutput + " -> " + right, column -> column > arrowEnd
                ? new int[] {rule.pattern(), rightStart + column - arrowEnd} : new int[] {rule.pattern(), 0});
    }

    /** Maps a column of a built pattern to {argument, column in that argument}. */
    private interface ColumnMap {
        int[] map(int column);
    }

    private static Optional<Problem> parse(Operation operation, String built, ColumnMap columns) {
        try {
            PatternParser.parse(operation, built);
            return Optional.empty();
        } catch (PatternSyntaxException rejected) {
            int[] at = rejected.column() == 0 ? columns.map(0) : columns.map(rejected.column());
            return Optional.of(new Problem(at[0], rejected.column() == 0 ? 0 : at[1], PatternCheck.firstLine(rejected)));
        }
    }

    /** Columns of {@code "left, weight -> o u t"}: the left side, the weight's names, then each output name. */
    private int[] contractionColumn(int column, String leftSide, String weight, String elementaryOutput, List<Name> output) {
        int index = column - 1;
        int left = leftSide.trim().length();
        if (index < left) {
            return new int[] {rule.pattern(), leadingSpaces(leftSide) + index + 1};
        }
        index -= left + 2;
        if (index >= 0 && index < weight.length()) {
            return new int[] {rule.weightShape(), leadingSpaces(weightShape) + index + 1};
        }
        index -= weight.length() + 4;
        int at = 0;
        for (Name name : output) {
            if (index >= at && index < at + name.text().length()) {
                return new int[] {rule.pattern(), name.offset() + index - at + 1};
            }
            at += name.text().length() + 1;
        }
        return new int[] {rule.pattern(), index == elementaryOutput.length() ? pattern.length() + 1 : 0};
    }

    private int[] biasColumn(int column, String bias) {
        return column >= 1 && column <= bias.length()
                ? new int[] {rule.biasShape(), leadingSpaces(biasShape) + column} : new int[] {rule.biasShape(), 0};
    }

    /** The output's axes with those missing from the bias as 1s, as the layer writes it. */
    private static String broadcastPattern(List<String> outputNames, String bias) {
        Set<String> biasNames = new LinkedHashSet<>(names(bias, 0).stream().map(Name::text).toList());
        List<String> terms = new ArrayList<>();
        for (String name : outputNames) {
            terms.add(biasNames.contains(name) ? name : "1");
        }
        return String.join(" ", terms);
    }

    /** The layer's reading of a side: parentheses dropped, names split at whitespace. */
    private static List<Name> names(String side, int offset) {
        List<Name> names = new ArrayList<>();
        int k = 0;
        while (k < side.length()) {
            if (isSeparator(side.charAt(k))) {
                k++;
                continue;
            }
            int start = k;
            while (k < side.length() && !isSeparator(side.charAt(k))) {
                k++;
            }
            names.add(new Name(side.substring(start, k), offset + start));
        }
        return names;
    }

    /** What the layer's {@code split("\\s+")} splits at, and the parentheses it drops first. */
    private static boolean isSeparator(char c) {
        return c == '(' || c == ')' || c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    /** How many characters {@link String#trim()} drops at the start. */
    private static int leadingSpaces(String text) {
        int k = 0;
        while (k < text.length() && text.charAt(k) <= ' ') {
            k++;
        }
        return k;
    }

    private static Optional<Problem> problem(int argument, int column, String message) {
        return Optional.of(new Problem(argument, column, message));
    }
}
