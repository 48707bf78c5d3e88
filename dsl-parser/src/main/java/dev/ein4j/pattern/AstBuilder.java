package dev.ein4j.pattern;

import dev.ein4j.error.PatternSyntaxException;
import dev.ein4j.grammar.EinPatternLexer;
import dev.ein4j.grammar.EinPatternParser;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.TreeSet;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Turns a pattern string into the immutable AST: runs the ANTLR parser with its console listeners
 * removed, converts the first syntax error into a {@link PatternSyntaxException} that says what is
 * wrong in words, and walks the parse tree into {@link AxisTerm}s. Structural rules that hold for
 * every operation (compositions do not nest, no zero lengths) are checked here; the rules of each
 * operation are the validator's.
 */
final class AstBuilder {

    private final Operation operation;
    private final String pattern;

    private AstBuilder(Operation operation, String pattern) {
        this.operation = operation;
        this.pattern = pattern;
    }

    static ParsedPattern build(Operation operation, String pattern) {
        return new AstBuilder(operation, pattern).build();
    }

    private ParsedPattern build() {
        checkParentheses();
        EinPatternLexer lexer = new EinPatternLexer(CharStreams.fromString(pattern));
        lexer.removeErrorListeners();
        EinPatternParser parser = new EinPatternParser(new CommonTokenStream(lexer));
        parser.removeErrorListeners();
        parser.addErrorListener(new FirstErrorThrows());
        parser.getInterpreter().setPredictionMode(PredictionMode.LL);
        switch (operation) {
            case REARRANGE, REDUCE, REPEAT -> {
                EinPatternParser.ArrowPatternContext tree = parser.arrowPattern();
                return new ParsedPattern(operation, pattern, List.of(operand(tree.operand(0))), operand(tree.operand(1)));
            }
            case EINSUM -> {
                EinPatternParser.EinsumPatternContext tree = parser.einsumPattern();
                List<EinPatternParser.OperandContext> operands = tree.operand();
                List<Operand> inputs = new ArrayList<>();
                for (int i = 0; i < operands.size() - 1; i++) {
                    inputs.add(operand(operands.get(i)));
                }
                return new ParsedPattern(operation, pattern, inputs, operand(operands.get(operands.size() - 1)));
            }
            case NUMPY_EINSUM -> {
                return numpyEinsum(parser.numpyEinsumPattern());
            }
            default -> {
                EinPatternParser.SinglePatternContext tree = parser.singlePattern();
                return new ParsedPattern(operation, pattern, List.of(operand(tree.operand())), null);
            }
        }
    }

    // ------------------------------------------------------------------ einops notation

    private Operand operand(EinPatternParser.OperandContext context) {
        List<AxisTerm> terms = new ArrayList<>();
        for (EinPatternParser.TermContext term : context.term()) {
            terms.add(term(term, false));
        }
        checkSeparated(context.term());
        return new Operand(terms, span(context));
    }

    /**
     * Terms are separated by whitespace or parentheses, as in einops: the lexer would split
     * {@code ...pre} or {@code w*} into two terms, but a reader sees one, so it is an error.
     */
    private void checkSeparated(List<EinPatternParser.TermContext> terms) {
        for (int i = 1; i < terms.size(); i++) {
            Token before = terms.get(i - 1).getStop();
            Token after = terms.get(i).getStart();
            boolean touching = before.getStopIndex() + 1 == after.getStartIndex();
            boolean parenthesis = before.getType() == EinPatternLexer.RPAREN || after.getType() == EinPatternLexer.LPAREN;
            if (touching && !parenthesis) {
                throw new PatternSyntaxException(pattern, after.getStartIndex() + 1, "'" + before.getText() + "' and '"
                        + after.getText() + "' must be separated by a space: each is an axis term of its own");
            }
        }
    }

    private AxisTerm term(EinPatternParser.TermContext context, boolean insideComposition) {
        Span span = span(context);
        if (context instanceof EinPatternParser.NameTermContext) {
            return new AxisName(checkName(context.getText(), span), span);
        }
        if (context instanceof EinPatternParser.NumberTermContext) {
            long length = length(context.getText(), span);
            return length == 1 ? new UnitAxis(span) : new AnonymousAxis(length, span);
        }
        if (context instanceof EinPatternParser.EllipsisTermContext) {
            return new EllipsisAxis(span);
        }
        if (context instanceof EinPatternParser.StarTermContext) {
            if (insideComposition) {
                throw error(span, "'*' cannot be part of a composition");
            }
            return new PackedAxes(span);
        }
        if (context instanceof EinPatternParser.SkipTermContext) {
            if (insideComposition) {
                throw error(span, "'_' cannot be part of a composition");
            }
            return new SkippedAxis(span);
        }
        if (context instanceof EinPatternParser.WindowTermContext window) {
            if (insideComposition) {
                throw error(span, "compositions are one level deep: a window cannot be part of a composition");
            }
            return new WindowAxis(affine(window.affine(0)), affine(window.affine(1)), span);
        }
        EinPatternParser.CompositionTermContext composition = (EinPatternParser.CompositionTermContext) context;
        if (insideComposition) {
            throw error(span, "compositions are one level deep: nested parentheses are not allowed");
        }
        if (composition.term().isEmpty()) {
            return new UnitAxis(span);
        }
        List<AxisTerm> members = new ArrayList<>();
        for (EinPatternParser.TermContext member : composition.term()) {
            members.add(term(member, true));
        }
        checkSeparated(composition.term());
        return new Composition(members, span);
    }

    /** A name may not end with '_' (einops' rule; starting with '_' or a digit is a lexer-level BAD_NAME). */
    private String checkName(String name, Span span) {
        if (name.endsWith("_")) {
            throw error(span, "axis name '" + name + "' must not end with '_'");
        }
        return name;
    }

    private AffineIndex affine(EinPatternParser.AffineContext context) {
        Span span = span(context);
        long coefficient = 1;
        if (context.INT() != null) {
            coefficient = coefficient(context.INT().getText(), span(context.INT()));
        }
        return new AffineIndex(coefficient, checkName(context.NAME().getText(), span(context.NAME())), span);
    }

    private long length(String digits, Span span) {
        long value;
        try {
            value = Long.parseLong(digits);
        } catch (NumberFormatException tooLarge) {
            throw error(span, "axis length " + digits + " is too large");
        }
        if (value == 0) {
            throw error(span, "an axis cannot have length 0");
        }
        return value;
    }

    private long coefficient(String digits, Span span) {
        long value;
        try {
            value = Long.parseLong(digits);
        } catch (NumberFormatException tooLarge) {
            throw error(span, "window coefficient " + digits + " is too large");
        }
        if (value == 0) {
            throw error(span, "a window's stride or dilation must be at least 1, not 0");
        }
        return value;
    }

    // ------------------------------------------------------------------ numpy notation

    private ParsedPattern numpyEinsum(EinPatternParser.NumpyEinsumPatternContext tree) {
        List<Operand> operands = new ArrayList<>();
        for (EinPatternParser.NumpyOperandContext operand : tree.numpyOperand()) {
            operands.add(numpyOperand(operand));
        }
        if (tree.ARROW() != null) {
            Operand output = operands.remove(operands.size() - 1);
            return new ParsedPattern(operation, pattern, operands, output);
        }
        return new ParsedPattern(operation, pattern, operands, implicitOutput(operands));
    }

    private Operand numpyOperand(EinPatternParser.NumpyOperandContext context) {
        List<AxisTerm> terms = new ArrayList<>();
        for (int i = 0; i < context.getChildCount(); i++) {
            Token token = ((TerminalNode) context.getChild(i)).getSymbol();
            if (token.getType() == EinPatternLexer.ELLIPSIS) {
                terms.add(new EllipsisAxis(span(token)));
                continue;
            }
            String text = token.getText();
            for (int k = 0; k < text.length(); k++) {
                char letter = text.charAt(k);
                Span span = new Span(token.getStartIndex() + k, token.getStartIndex() + k + 1);
                if (!Character.isLetter(letter)) {
                    throw error(span, "numpy-notation subscripts are single letters, '" + letter + "' is not a letter");
                }
                terms.add(new AxisName(String.valueOf(letter), span));
            }
        }
        return new Operand(terms, span(context));
    }

    /** numpy's implicit output: the ellipsis (if any input has one), then the letters used once, sorted. */
    private static Operand implicitOutput(List<Operand> inputs) {
        TreeSet<String> once = new TreeSet<>();
        TreeSet<String> repeated = new TreeSet<>();
        boolean ellipsis = false;
        for (Operand input : inputs) {
            ellipsis |= input.hasEllipsis();
            for (AxisName name : input.names()) {
                if (!repeated.contains(name.name()) && !once.add(name.name())) {
                    once.remove(name.name());
                    repeated.add(name.name());
                }
            }
        }
        List<AxisTerm> terms = new ArrayList<>();
        if (ellipsis) {
            terms.add(new EllipsisAxis(Span.NONE));
        }
        once.forEach(name -> terms.add(new AxisName(name, Span.NONE)));
        return new Operand(terms, Span.NONE);
    }

    // ------------------------------------------------------------------ errors

    /** Unbalanced parentheses get their own message, naming the parenthesis that has no partner. */
    private void checkParentheses() {
        Deque<Integer> open = new ArrayDeque<>();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '(') {
                open.push(i);
            } else if (c == ')') {
                if (open.isEmpty()) {
                    throw new PatternSyntaxException(pattern, i + 1,
                            "unbalanced parenthesis: ')' at column " + (i + 1) + " has no matching '('");
                }
                open.pop();
            }
        }
        if (!open.isEmpty()) {
            int column = open.peekLast() + 1;
            throw new PatternSyntaxException(pattern, column,
                    "unbalanced parenthesis: '(' at column " + column + " is never closed");
        }
        // Nesting is never valid; rejecting it before ANTLR also bounds the parser's recursion depth.
        int depth = 0;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '(' && ++depth > 1) {
                throw new PatternSyntaxException(pattern, i + 1,
                        "compositions are one level deep: nested parentheses are not allowed");
            } else if (c == ')') {
                depth--;
            }
        }
    }

    private PatternSyntaxException error(Span span, String reason) {
        return new PatternSyntaxException(pattern, span.column(), reason);
    }

    private final class FirstErrorThrows extends BaseErrorListener {
        @Override
        public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int charPositionInLine,
                                String antlrMessage, RecognitionException exception) {
            Token token = (Token) offendingSymbol;
            int column = token.getType() == Token.EOF ? pattern.length() + 1 : token.getStartIndex() + 1;
            throw new PatternSyntaxException(pattern, column, describe(token, (EinPatternParser) recognizer));
        }
    }

    private String describe(Token token, EinPatternParser parser) {
        String text = token.getText();
        boolean numpy = operation == Operation.NUMPY_EINSUM;
        boolean expectsArrow = parser.getExpectedTokens().contains(EinPatternLexer.ARROW);
        return switch (token.getType()) {
            case Token.EOF -> expectsArrow && operation != Operation.NUMPY_EINSUM
                    ? "missing '->': " + article(operation) + " pattern has the form "
                      + (operation.isEinsum() ? "'input, input, ... -> output'" : "'input -> output'")
                    : "unexpected end of pattern";
            case EinPatternLexer.UNKNOWN -> "unexpected character '" + text + "'";
            case EinPatternLexer.BAD_NAME -> numpy
                    ? "numpy-notation subscripts are single letters, '" + text + "' is not"
                    : "axis name '" + text + "' must start with a letter";
            case EinPatternLexer.BAD_DOTS -> "'" + text + "' is not an ellipsis, write '...'";
            case EinPatternLexer.ARROW -> pattern.indexOf("->") < token.getStartIndex()
                    ? "more than one '->'"
                    : "'->' is not allowed in " + article(operation) + " pattern";
            case EinPatternLexer.COMMA -> operation.isEinsum()
                    ? "unexpected ','"
                    : "',' separates einsum operands; " + article(operation) + " pattern has one input";
            case EinPatternLexer.PLUS -> windowHint(parser).isEmpty()
                    ? "'+' is only allowed in a window such as (h + kh) or (2*h + kh)"
                    : "unexpected '+'" + windowHint(parser);
            case EinPatternLexer.INT, EinPatternLexer.UNDERSCORE, EinPatternLexer.LPAREN, EinPatternLexer.RPAREN,
                 EinPatternLexer.STAR -> numpy
                    ? "numpy-notation subscripts are single letters, '" + text + "' is not allowed"
                    : "unexpected '" + text + "'" + windowHint(parser);
            default -> "unexpected '" + text + "'" + windowHint(parser);
        };
    }

    /** "a rearrange", "an einsum", "an unpack". */
    static String article(Operation operation) {
        String name = operation.displayName();
        return ("aeiou".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name;
    }

    private static String windowHint(EinPatternParser parser) {
        ParserRuleContext context = parser.getContext();
        return context instanceof EinPatternParser.AffineContext || context instanceof EinPatternParser.WindowTermContext
                ? ": a window is written (h + kh), with an optional INT* before either name"
                : "";
    }

    private static Span span(ParserRuleContext context) {
        Token start = context.getStart();
        Token stop = context.getStop();
        int from = start.getStartIndex();
        int to = stop == null || stop.getType() == Token.EOF || stop.getStopIndex() < from ? from : stop.getStopIndex() + 1;
        return new Span(from, to);
    }

    private static Span span(TerminalNode node) {
        return span(node.getSymbol());
    }

    private static Span span(Token token) {
        return new Span(token.getStartIndex(), token.getStopIndex() + 1);
    }
}
