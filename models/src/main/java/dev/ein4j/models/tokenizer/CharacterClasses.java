package dev.ein4j.models.tokenizer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The character predicates of Hugging Face {@code tokenizers}, with the library's own Unicode tables.
 *
 * <p>The Rust crate mixes tables of different Unicode versions (an old one for punctuation, controls
 * and marks, a current one for {@code \w} and numerals), so neither Java's {@link Character} nor any
 * single Unicode version reproduces it. The classes are measured from the library by
 * {@code models/src/test/python/generate_character_classes.py} and read from
 * {@code character-classes.txt} as sorted code point ranges.
 */
final class CharacterClasses {

    private static final String RESOURCE = "character-classes.txt";

    /** BertPreTokenizer's and Punctuation's punctuation: ASCII punctuation and Unicode P*. */
    static final CharacterClasses.Ranges PUNCTUATION;
    /** Digits' {@code char::is_numeric}: Nd, Nl, No. */
    static final CharacterClasses.Ranges NUMERIC;
    /** The {@code \w} of the Rust regex crate (Whitespace, single-word added tokens). */
    static final CharacterClasses.Ranges WORD;
    /** What BertNormalizer's clean_text deletes: NUL, U+FFFD, controls other than tab and newlines. */
    static final CharacterClasses.Ranges BERT_REMOVED;
    /** What StripAccents deletes: combining marks. */
    static final CharacterClasses.Ranges COMBINING_MARK;
    /** What BertNormalizer's strip_accents deletes after NFD: non-spacing marks. */
    static final CharacterClasses.Ranges NONSPACING_MARK;

    static {
        Map<String, Ranges> classes = read();
        PUNCTUATION = classes.get("punctuation");
        NUMERIC = classes.get("numeric");
        WORD = classes.get("word");
        BERT_REMOVED = classes.get("bert_removed");
        COMBINING_MARK = classes.get("combining_mark");
        NONSPACING_MARK = classes.get("nonspacing_mark");
    }

    private CharacterClasses() {
    }

    /**
     * Rust's {@code char::is_whitespace}: the Unicode White_Space property (stable since Unicode 6.3).
     *
     * @param codePoint a code point
     * @return whether it is white space
     */
    static boolean isWhitespace(int codePoint) {
        if (codePoint < 0x80) {
            return codePoint == ' ' || (codePoint >= 0x09 && codePoint <= 0x0D);
        }
        return codePoint == 0x85 || codePoint == 0xA0 || codePoint == 0x1680 || (codePoint >= 0x2000 && codePoint <= 0x200A)
                || codePoint == 0x2028 || codePoint == 0x2029 || codePoint == 0x202F || codePoint == 0x205F
                || codePoint == 0x3000;
    }

    /**
     * BertNormalizer's CJK ideographs (the blocks BERT pads with spaces).
     *
     * @param codePoint a code point
     * @return whether it is in one of the CJK Unified or Compatibility Ideograph blocks
     */
    static boolean isChineseCharacter(int codePoint) {
        return (codePoint >= 0x4E00 && codePoint <= 0x9FFF) || (codePoint >= 0x3400 && codePoint <= 0x4DBF)
                || (codePoint >= 0x20000 && codePoint <= 0x2A6DF) || (codePoint >= 0x2A700 && codePoint <= 0x2B73F)
                || (codePoint >= 0x2B740 && codePoint <= 0x2B81F) || (codePoint >= 0x2B920 && codePoint <= 0x2CEAF)
                || (codePoint >= 0xF900 && codePoint <= 0xFAFF) || (codePoint >= 0x2F800 && codePoint <= 0x2FA1F);
    }

    private static Map<String, Ranges> read() {
        Map<String, Ranges> classes = new HashMap<>();
        try (InputStream in = CharacterClasses.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] fields = line.trim().split(" ");
                    classes.put(fields[0], Ranges.parse(fields));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(RESOURCE, e);
        }
        return classes;
    }

    /** A set of code points as sorted, disjoint, inclusive ranges, with a bit set for ASCII. */
    static final class Ranges {

        private final int[] starts;
        private final int[] ends;
        private final boolean[] ascii = new boolean[128];

        private Ranges(int[] starts, int[] ends) {
            this.starts = starts;
            this.ends = ends;
            for (int c = 0; c < 128; c++) {
                ascii[c] = search(c);
            }
        }

        /** @param fields the class name, then ranges "HEX" or "HEX-HEX" in increasing order */
        static Ranges parse(String[] fields) {
            int[] starts = new int[fields.length - 1];
            int[] ends = new int[fields.length - 1];
            for (int i = 1; i < fields.length; i++) {
                int dash = fields[i].indexOf('-');
                starts[i - 1] = Integer.parseInt(dash < 0 ? fields[i] : fields[i].substring(0, dash), 16);
                ends[i - 1] = dash < 0 ? starts[i - 1] : Integer.parseInt(fields[i].substring(dash + 1), 16);
            }
            return new Ranges(starts, ends);
        }

        /**
         * @param codePoint a code point
         * @return whether the set holds it
         */
        boolean contains(int codePoint) {
            return codePoint < 128 ? codePoint >= 0 && ascii[codePoint] : search(codePoint);
        }

        private boolean search(int codePoint) {
            int low = 0;
            int high = starts.length - 1;
            while (low <= high) {
                int middle = (low + high) >>> 1;
                if (codePoint < starts[middle]) {
                    high = middle - 1;
                } else if (codePoint > ends[middle]) {
                    low = middle + 1;
                } else {
                    return true;
                }
            }
            return false;
        }
    }
}
