package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The pre-tokenizers that only cut (ByteLevel and Metaspace, which also rewrite, have their own
 * classes), and {@link #sequence} to chain them.
 */
final class PreTokenizers {

    private PreTokenizers() {
    }

    /** @return Whitespace: runs of word characters and runs of other non-space characters ({@code \w+|[^\w\s]+}) */
    static PreTokenizer whitespace() {
        return piece -> {
            String text = piece.text();
            List<NormalizedText> words = new ArrayList<>();
            int i = 0;
            while (i < text.length()) {
                int codePoint = text.codePointAt(i);
                if (CharacterClasses.isWhitespace(codePoint)) {
                    i += Character.charCount(codePoint);
                    continue;
                }
                boolean word = CharacterClasses.WORD.contains(codePoint);
                int end = i;
                while (end < text.length()) {
                    int next = text.codePointAt(end);
                    if (CharacterClasses.isWhitespace(next) || CharacterClasses.WORD.contains(next) != word) {
                        break;
                    }
                    end += Character.charCount(next);
                }
                words.add(piece.slice(i, end));
                i = end;
            }
            return words;
        };
    }

    /** @return WhitespaceSplit: the runs between white space */
    static PreTokenizer whitespaceSplit() {
        return splitting(CharacterClasses::isWhitespace, SplitBehavior.REMOVED);
    }

    /** @return BertPreTokenizer: split at white space (removed), then at each punctuation character (kept alone) */
    static PreTokenizer bert() {
        return sequence(List.of(whitespaceSplit(), splitting(CharacterClasses.PUNCTUATION::contains, SplitBehavior.ISOLATED)));
    }

    /**
     * @param behavior what to do with each punctuation character
     * @return Punctuation
     */
    static PreTokenizer punctuation(SplitBehavior behavior) {
        return splitting(CharacterClasses.PUNCTUATION::contains, behavior);
    }

    /**
     * @param individually whether every digit is its own word (else runs of digits are)
     * @return Digits
     */
    static PreTokenizer digits(boolean individually) {
        return splitting(CharacterClasses.NUMERIC::contains, individually ? SplitBehavior.ISOLATED : SplitBehavior.CONTIGUOUS);
    }

    /**
     * @param delimiter the character to split at (removed)
     * @return CharDelimiterSplit
     */
    static PreTokenizer characterDelimiter(int delimiter) {
        return splitting(c -> c == delimiter, SplitBehavior.REMOVED);
    }

    /**
     * @param pattern what to split at
     * @param behavior what to do with the matches
     * @param invert whether the pattern matches the words instead of the delimiters
     * @return Split
     */
    static PreTokenizer split(TextPattern pattern, SplitBehavior behavior, boolean invert) {
        return piece -> {
            List<Span> spans = pattern.spans(piece.text());
            if (invert) {
                spans = spans.stream().map(Span::inverted).toList();
            }
            return piece.split(spans, behavior);
        };
    }

    /**
     * @param length code points per word
     * @return FixedLength: consecutive words of that many code points (the last one shorter)
     */
    static PreTokenizer fixedLength(int length) {
        return piece -> {
            String text = piece.text();
            List<NormalizedText> words = new ArrayList<>();
            int start = 0;
            while (start < text.length()) {
                int end = start;
                for (int count = 0; count < length && end < text.length(); count++) {
                    end += Character.charCount(text.codePointAt(end));
                }
                words.add(piece.slice(start, end));
                start = end;
            }
            return words;
        };
    }

    /**
     * @param steps the pre-tokenizers, applied in order to every word of the previous one
     * @return Sequence
     */
    static PreTokenizer sequence(List<PreTokenizer> steps) {
        List<PreTokenizer> chain = List.copyOf(steps);
        return piece -> {
            List<NormalizedText> words = List.of(piece);
            for (PreTokenizer step : chain) {
                List<NormalizedText> next = new ArrayList<>();
                for (NormalizedText word : words) {
                    for (NormalizedText part : step.preTokenize(word)) {
                        if (!part.isEmpty()) {
                            next.add(part);
                        }
                    }
                }
                words = next;
            }
            return words;
        };
    }

    private static PreTokenizer splitting(IntPredicate delimiter, SplitBehavior behavior) {
        return piece -> piece.split(Span.ofCodePoints(piece.text(), delimiter), behavior);
    }
}
