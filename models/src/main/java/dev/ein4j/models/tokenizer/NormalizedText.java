package dev.ein4j.models.tokenizer;

import java.util.Arrays;
import java.util.List;

/**
 * A piece of the input after normalization, with where each of its characters came from.
 *
 * <p>{@code origins[i]} is the offset, in the original input (UTF-16 units), of the character that
 * produced unit {@code i}: a character inserted by a normalizer takes the origin of the character it
 * was inserted at. {@link #originalStart()} is where the piece began in the original input when it
 * was cut out ({@link #slice}: the origin of its first character); normalizing the piece later does
 * not move it, cutting it again (even whole) does. The tokenizer needs no more of Hugging Face's
 * alignments than this: {@code Metaspace} with {@code prepend_scheme "first"} prepends only to the
 * piece that begins at offset 0, so not to "ab" normalized from "\u000Bab" by a normalizer that
 * deletes the control character (the library re-cuts every normalized piece at the added tokens).
 *
 * <p>Instances are immutable; every operation returns a new one (or this one, when nothing changes).
 */
final class NormalizedText {

    private final String text;
    private final int[] origins;
    private final int originalStart;

    private NormalizedText(String text, int[] origins, int originalStart) {
        this.text = text;
        this.origins = origins;
        this.originalStart = originalStart;
    }

    /**
     * @param original a whole input
     * @return the input as a piece beginning at offset 0, each character its own origin
     */
    static NormalizedText of(String original) {
        int[] origins = new int[original.length()];
        for (int i = 0; i < origins.length; i++) {
            origins[i] = i > 0 && Character.isLowSurrogate(original.charAt(i)) ? i - 1 : i;
        }
        return new NormalizedText(original, origins, 0);
    }

    String text() {
        return text;
    }

    int length() {
        return text.length();
    }

    boolean isEmpty() {
        return text.isEmpty();
    }

    /** @return where this piece began in the original input when it was cut out */
    int originalStart() {
        return originalStart;
    }

    /**
     * @param index a UTF-16 index into the text
     * @return the original offset of the character that produced it
     */
    int originAt(int index) {
        return origins[index];
    }

    /**
     * @param start first UTF-16 index, inclusive
     * @param end last UTF-16 index, exclusive
     * @return the piece between them, beginning where its first character came from
     */
    NormalizedText slice(int start, int end) {
        int begin = start < origins.length ? origins[start] : originalStart;
        if (start == 0 && end == text.length() && begin == originalStart) {
            return this;
        }
        return new NormalizedText(text.substring(start, end), Arrays.copyOfRange(origins, start, end), begin);
    }

    /**
     * Cuts the text at the given spans, which cover it in order.
     *
     * @param spans the spans of a {@link TextPattern} or character predicate
     * @param behavior what to do with the matched spans
     * @return the pieces, empty ones included (the caller drops them)
     */
    List<NormalizedText> split(List<Span> spans, SplitBehavior behavior) {
        List<Span> kept = behavior.apply(spans);
        NormalizedText[] pieces = new NormalizedText[kept.size()];
        for (int i = 0; i < pieces.length; i++) {
            pieces[i] = slice(kept.get(i).start(), kept.get(i).end());
        }
        return Arrays.asList(pieces);
    }

    /**
     * Rewrites each code point: all characters written for one take its origin.
     *
     * @param rewrite the replacement of a code point, or null to keep it
     * @return the rewritten text
     */
    NormalizedText mapCodePoints(CodePointRewrite rewrite) {
        Builder out = null;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            int width = Character.charCount(codePoint);
            String replacement = rewrite.apply(codePoint);
            if (replacement != null && out == null) {
                out = new Builder(text.length() + 16).appendRange(this, 0, i);
            }
            if (out != null) {
                if (replacement == null) {
                    out.appendRange(this, i, i + width);
                } else {
                    out.append(replacement, origins[i]);
                }
            }
            i += width;
        }
        return out == null ? this : out.build(originalStart);
    }

    /**
     * Hugging Face's {@code prepend}: nothing on an empty text, else the prefix takes the origin of the
     * first character.
     *
     * @param prefix the text to put in front
     * @return the longer text
     */
    NormalizedText prepend(String prefix) {
        if (text.isEmpty() || prefix.isEmpty()) {
            return this;
        }
        return new Builder(prefix.length() + text.length()).append(prefix, origins[0]).appendRange(this, 0, text.length())
                .build(originalStart);
    }

    /**
     * Replaces every match of a pattern; the content of a replacement takes the origin of the last
     * matched character.
     *
     * @param pattern what to replace
     * @param content the replacement
     * @return the rewritten text
     */
    NormalizedText replace(TextPattern pattern, String content) {
        List<Span> spans = pattern.spans(text);
        if (spans.size() == 1 && !spans.get(0).match()) {
            return this;
        }
        Builder out = new Builder(text.length() + 16);
        for (Span span : spans) {
            if (!span.match()) {
                out.appendRange(this, span.start(), span.end());
            } else {
                int origin = span.end() > 0 ? origins[span.end() - 1] : originalStart;
                out.append(content, origin);
            }
        }
        return out.build(originalStart);
    }

    /**
     * @param left whether to remove leading white space
     * @param right whether to remove trailing white space
     * @return the text without them
     */
    NormalizedText strip(boolean left, boolean right) {
        int start = 0;
        int end = text.length();
        while (left && start < end && CharacterClasses.isWhitespace(text.codePointAt(start))) {
            start += Character.charCount(text.codePointAt(start));
        }
        while (right && end > start && CharacterClasses.isWhitespace(text.codePointBefore(end))) {
            end -= Character.charCount(text.codePointBefore(end));
        }
        if (start == 0 && end == text.length()) {
            return this;
        }
        return new NormalizedText(text.substring(start, end), Arrays.copyOfRange(origins, start, end), originalStart);
    }

    @Override
    public String toString() {
        return text;
    }

    /** The replacement of one code point in {@link #mapCodePoints}. */
    @FunctionalInterface
    interface CodePointRewrite {

        /**
         * @param codePoint a code point of the text
         * @return what to write instead ("" to delete it), or null to keep it
         */
        String apply(int codePoint);
    }

    /** Builds a text character by character, each with its origin. */
    static final class Builder {

        private final StringBuilder text;
        private int[] origins;

        Builder(int capacity) {
            text = new StringBuilder(capacity);
            origins = new int[Math.max(capacity, 4)];
        }

        /**
         * @param characters what to append
         * @param origin the origin of every unit appended
         * @return this builder
         */
        Builder append(CharSequence characters, int origin) {
            ensure(characters.length());
            Arrays.fill(origins, text.length(), text.length() + characters.length(), origin);
            text.append(characters);
            return this;
        }

        /**
         * @param codePoint what to append
         * @param origin its origin
         * @return this builder
         */
        Builder appendCodePoint(int codePoint, int origin) {
            int width = Character.charCount(codePoint);
            ensure(width);
            Arrays.fill(origins, text.length(), text.length() + width, origin);
            text.appendCodePoint(codePoint);
            return this;
        }

        /**
         * @param source a text
         * @param start first UTF-16 index, inclusive
         * @param end last UTF-16 index, exclusive
         * @return this builder, with that range of the source and its origins appended
         */
        Builder appendRange(NormalizedText source, int start, int end) {
            ensure(end - start);
            System.arraycopy(source.origins, start, origins, text.length(), end - start);
            text.append(source.text, start, end);
            return this;
        }

        int length() {
            return text.length();
        }

        /**
         * @param originalStart where the piece began in the original input
         * @return the text built
         */
        NormalizedText build(int originalStart) {
            return new NormalizedText(text.toString(), Arrays.copyOf(origins, text.length()), originalStart);
        }

        private void ensure(int more) {
            if (text.length() + more > origins.length) {
                origins = Arrays.copyOf(origins, Math.max(origins.length * 2, text.length() + more));
            }
        }
    }
}
