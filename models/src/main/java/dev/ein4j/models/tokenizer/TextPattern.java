package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pattern of a {@code Split} pre-tokenizer or a {@code Replace} normalizer or decoder: in
 * tokenizer.json {@code {"String": "..."}} (the literal text) or {@code {"Regex": "..."}} (an
 * Oniguruma expression, translated by {@link OnigurumaSyntax}). Hugging Face compiles both as
 * regular expressions, so an empty literal matches at every position, as it does here.
 */
final class TextPattern {

    private final Pattern pattern;
    private final String source;

    private TextPattern(Pattern pattern, String source) {
        this.pattern = pattern;
        this.source = source;
    }

    /**
     * @param text the text to match literally
     * @return its pattern
     */
    static TextPattern literal(String text) {
        return new TextPattern(Pattern.compile(Pattern.quote(text)), text);
    }

    /**
     * @param expression an Oniguruma (Ruby syntax) regular expression
     * @return its pattern
     * @throws java.util.regex.PatternSyntaxException if the translation is not a valid Java expression
     * @throws IllegalArgumentException for Oniguruma constructs that Java has no equivalent for
     */
    static TextPattern regex(String expression) {
        return new TextPattern(OnigurumaSyntax.compile(expression), expression);
    }

    /**
     * The matches in a text and the gaps between them, as Hugging Face's {@code find_matches}: an
     * empty text is one empty gap.
     *
     * @param text a text
     * @return spans covering the text in order
     * @throws TokenizerException if the expression recursed too deeply on this text
     */
    List<Span> spans(String text) {
        List<Span> spans = new ArrayList<>();
        if (text.isEmpty()) {
            spans.add(new Span(0, 0, false));
            return spans;
        }
        Matcher matcher = pattern.matcher(text);
        int previous = 0;
        try {
            while (matcher.find()) {
                int start = matcher.start();
                int end = matcher.end();
                if (start == end && start > 0 && start < text.length() && Character.isLowSurrogate(text.charAt(start))) {
                    continue; // an empty match inside a surrogate pair: Oniguruma steps over whole characters
                }
                if (previous != start) {
                    spans.add(new Span(previous, start, false));
                }
                spans.add(new Span(start, end, true));
                previous = end;
            }
        } catch (StackOverflowError deep) {
            throw new TokenizerException("the regular expression " + source + " recursed too deeply on a text of "
                    + text.length() + " characters", deep);
        }
        if (previous != text.length()) {
            spans.add(new Span(previous, text.length(), false));
        }
        return spans;
    }

    @Override
    public String toString() {
        return source;
    }
}
