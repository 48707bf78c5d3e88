package dev.ein4j.models.tokenizer;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Translates the Oniguruma expressions of tokenizer.json (Ruby syntax, UTF-8, as the Rust crate
 * compiles them) into {@link java.util.regex} patterns with the same meaning.
 *
 * <p>Differences handled:
 * <ul>
 *   <li>{@code ^} and {@code $} match at every line break ({@code \n} only), {@code .} stops at {@code \n}
 *       only: the pattern is compiled with MULTILINE and UNIX_LINES;</li>
 *   <li>{@code (?m)} is Ruby's dot-all, Java's {@code (?s)};</li>
 *   <li>{@code \s}, {@code \d} and {@code \b} are Unicode-aware (UNICODE_CHARACTER_CLASS); {@code \w} and the POSIX
 *       brackets ({@code [[:punct:]]} is punctuation and symbols) are spelled out as Oniguruma defines them;</li>
 *   <li>{@code \h} is a hexadecimal digit (Java's is horizontal space), {@code \v} the vertical tab,
 *       {@code \p{^L}} a negated property, {@code [[:alpha:]]} a POSIX bracket;</li>
 *   <li>a {@code {} that does not start a repetition is a literal brace, {@code {,n}} is {@code {0,n}}, and
 *       {@code X{n,m}+} repeats {@code X{n,m}} (it is not possessive in Ruby syntax);</li>
 *   <li>{@code (?#...)} comments are dropped.</li>
 * </ul>
 * Absent operators {@code (?~...)}, subexpression calls {@code \g<...>} and {@code \K} are rejected.
 * Character properties come from Java 17's Unicode 13 tables, the Rust crate's from Unicode 16:
 * characters assigned since then (no common script) can classify differently.
 */
final class OnigurumaSyntax {

    private static final int FLAGS = Pattern.UNICODE_CHARACTER_CLASS | Pattern.MULTILINE | Pattern.UNIX_LINES;
    private static final Set<String> GENERAL_CATEGORIES = Set.of("L", "LU", "LL", "LT", "LM", "LO", "LC", "M", "MN",
            "MC", "ME", "N", "ND", "NL", "NO", "P", "PC", "PD", "PS", "PE", "PI", "PF", "PO", "S", "SM", "SC", "SK", "SO",
            "Z", "ZS", "ZL", "ZP", "C", "CC", "CF", "CS", "CO", "CN");

    /** Oniguruma's \w: Alphabetic, marks, decimal digits, connectors, and Latin-1's superscripts and fractions. */
    private static final String WORD = "\\p{IsAlphabetic}\\p{M}\\p{Nd}\\p{Pc}\\x{B2}\\x{B3}\\x{B9}\\x{BC}-\\x{BE}";

    private final String source;
    private final StringBuilder out;
    private final Deque<Integer> groupStarts = new ArrayDeque<>();
    private int position;
    private int classDepth;
    private int classStart;
    private int atomStart = -1;

    private OnigurumaSyntax(String source) {
        this.source = source;
        this.out = new StringBuilder(source.length() + 16);
    }

    /**
     * @param expression an Oniguruma expression
     * @return the equivalent Java pattern
     * @throws java.util.regex.PatternSyntaxException if Java rejects the translation
     * @throws IllegalArgumentException for a construct Java has no equivalent for
     */
    static Pattern compile(String expression) {
        return Pattern.compile(translate(expression), FLAGS);
    }

    /**
     * @param expression an Oniguruma expression
     * @return the Java expression (to compile with {@link #compile}'s flags)
     */
    static String translate(String expression) {
        OnigurumaSyntax translation = new OnigurumaSyntax(expression);
        translation.run();
        return translation.out.toString();
    }

    private void run() {
        while (position < source.length()) {
            char c = source.charAt(position);
            int before = out.length();
            if (c == '\\') {
                escape();
                atomStart = classDepth == 0 ? before : atomStart;
            } else if (c == '[') {
                classStart = classDepth == 0 ? before : classStart;
                openClass();
            } else if (c == ']' && classDepth > 0) {
                classDepth--;
                append("]", 1);
                atomStart = classDepth == 0 ? classStart : atomStart;
            } else if (classDepth > 0) {
                append(String.valueOf(c), 1);
            } else {
                outsideClass(c, before);
            }
        }
    }

    /** Tracks where the last atom starts, so that a quantified interval can be wrapped (see {@link #brace}). */
    private void outsideClass(char c, int before) {
        if (c == '(') {
            groupStarts.push(before);
            if (peek(1) == '?') {
                group();
            } else {
                append("(", 1);
            }
        } else if (c == ')') {
            append(")", 1);
            atomStart = groupStarts.isEmpty() ? -1 : groupStarts.pop();
        } else if (c == '{') {
            brace();
        } else if (c == '*' || c == '+' || c == '?') {
            append(String.valueOf(c), 1);
        } else if (c == '|' || c == '^' || c == '$') {
            append(String.valueOf(c), 1);
            atomStart = -1;
        } else {
            boolean pair = Character.isHighSurrogate(c) && Character.isLowSurrogate(peek(1));
            append(source.substring(position, position + (pair ? 2 : 1)), pair ? 2 : 1);
            atomStart = before;
        }
    }

    private char peek(int ahead) {
        int at = position + ahead;
        return at < source.length() ? source.charAt(at) : '\0';
    }

    private void escape() {
        if (position + 1 >= source.length()) {
            throw new IllegalArgumentException("the expression ends with a lone backslash");
        }
        char next = source.charAt(position + 1);
        switch (next) {
            case 'h' -> append(classDepth > 0 ? "0-9a-fA-F" : "[0-9a-fA-F]", 2);
            case 'H' -> append("[^0-9a-fA-F]", 2);
            case 'v' -> append("\\x{0B}", 2);
            case 'w' -> append(classDepth > 0 ? WORD : "[" + WORD + "]", 2);
            case 'W' -> append("[^" + WORD + "]", 2);
            case 'p', 'P' -> property(next == 'P');
            case 'K', 'g', 'y', 'Y', 'O', 'N' -> throw new IllegalArgumentException(
                    "\\" + next + " has no Java equivalent");
            default -> append(source.substring(position, position + 2), 2);
        }
    }

    private void property(boolean negated) {
        if (peek(2) != '{') {
            append(source.substring(position, position + 2), 2); // \pL: Java reads one-letter names too
            return;
        }
        int close = source.indexOf('}', position + 3);
        if (close < 0) {
            throw new IllegalArgumentException("\\p{ at " + position + " is not closed");
        }
        String name = source.substring(position + 3, close);
        if (name.startsWith("^")) {
            negated = !negated;
            name = name.substring(1);
        }
        out.append(negated ? "\\P{" : "\\p{").append(javaPropertyName(name)).append('}');
        position = close + 1;
    }

    private static String javaPropertyName(String name) {
        String compact = name.replace("_", "").replace(" ", "").replace("-", "");
        String upper = compact.toUpperCase(Locale.ROOT);
        if (GENERAL_CATEGORIES.contains(upper)) {
            return upper.length() == 1 ? upper : upper.charAt(0) + upper.substring(1).toLowerCase(Locale.ROOT);
        }
        return switch (upper) {
            case "ALPHA", "ALPHABETIC" -> "IsAlphabetic";
            case "LETTER" -> "L";
            case "NUMBER" -> "N";
            case "PUNCTUATION", "PUNCT" -> "P";
            case "SYMBOL" -> "S";
            case "MARK" -> "M";
            case "SEPARATOR" -> "Z";
            default -> "Is" + compact;
        };
    }

    private void openClass() {
        if (classDepth > 0 && peek(1) == ':') {
            int close = source.indexOf(":]", position + 2);
            if (close > 0) {
                posixBracket(source.substring(position + 2, close));
                position = close + 2;
                return;
            }
        }
        classDepth++;
        out.append('[');
        position++;
        if (peek(0) == '^') {
            out.append('^');
            position++;
        }
    }

    private void posixBracket(String name) {
        boolean negated = name.startsWith("^");
        String bare = negated ? name.substring(1) : name;
        String java = switch (bare) {
            case "alpha" -> "\\p{IsAlphabetic}";
            case "digit" -> "\\p{Nd}";
            case "alnum" -> "\\p{IsAlphabetic}\\p{Nd}";
            case "upper" -> "\\p{IsUppercase}";
            case "lower" -> "\\p{IsLowercase}";
            case "space" -> "\\s";
            case "blank" -> "\\p{Zs}\\t";
            case "cntrl" -> "\\p{Cc}";
            case "punct" -> "\\p{P}\\p{S}";
            case "xdigit" -> "0-9a-fA-F";
            case "word" -> "\\p{IsAlphabetic}\\p{M}\\p{Nd}\\p{Pc}";
            case "print" -> "[^\\p{Cc}\\p{Zl}\\p{Zp}\\p{Cs}\\p{Cn}]";
            case "graph" -> "[^\\p{Cc}\\p{Zl}\\p{Zp}\\p{Zs}\\p{Cs}\\p{Cn}]";
            default -> throw new IllegalArgumentException("[:" + name + ":] is not a POSIX bracket");
        };
        out.append(negated ? "[^" + java + "]" : "[" + java + "]");
    }

    private void group() {
        char kind = peek(2);
        if (kind == '#') {
            int close = source.indexOf(')', position);
            if (close < 0) {
                throw new IllegalArgumentException("a (?# comment is not closed");
            }
            position = close + 1;
            groupStarts.pop();
            return;
        }
        if (kind == '~') {
            throw new IllegalArgumentException("the absent operator (?~...) has no Java equivalent");
        }
        int end = position + 2;
        while (end < source.length() && "imx-".indexOf(source.charAt(end)) >= 0) {
            end++;
        }
        boolean isFlagGroup = end > position + 2 && end < source.length() && (source.charAt(end) == ':' || source.charAt(end) == ')');
        if (isFlagGroup) {
            String flags = source.substring(position + 2, end).replace('m', 's'); // Ruby's m is Java's s (dot-all)
            out.append("(?").append(flags).append(source.charAt(end));
            if (source.charAt(end) == ')') {
                groupStarts.pop(); // (?i) sets flags, it opens no group
            }
            position = end + 1;
        } else {
            append("(?", 2);
        }
    }

    /**
     * Copies a repetition {n}, {n,}, {n,m} or {,m}; any other brace is a literal one in Oniguruma.
     * In Ruby syntax {@code X{1,3}+} is not possessive but {@code (?:X{1,3})+}, so it is wrapped.
     */
    private void brace() {
        int close = source.indexOf('}', position);
        String inside = close < 0 ? null : source.substring(position + 1, close);
        boolean interval = inside != null && (inside.matches("\\d+(,\\d*)?") || inside.matches(",\\d+"));
        if (!interval) {
            append("\\{", 1);
            return;
        }
        String repetition = inside.startsWith(",") ? "{0" + inside + "}" : "{" + inside + "}";
        boolean repeated = close + 1 < source.length() && source.charAt(close + 1) == '+';
        if (repeated && atomStart >= 0) {
            out.insert(atomStart, "(?:").append(repetition).append(')');
        } else {
            out.append(repetition);
        }
        position = close + 1;
    }

    private void append(String text, int consumed) {
        out.append(text);
        position += consumed;
    }
}
