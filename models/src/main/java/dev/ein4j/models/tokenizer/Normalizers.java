package dev.ein4j.models.tokenizer;

import java.util.List;

/** The normalizers of a few lines each; {@link UnicodeNormalizer} and {@link BertNormalizer} have their own classes. */
final class Normalizers {

    private Normalizers() {
    }

    /** @return Lowercase: the full lowercase mapping of every code point */
    static Normalizer lowercase() {
        return text -> text.mapCodePoints(CaseMapping::lowercase);
    }

    /**
     * @param left whether to strip leading white space
     * @param right whether to strip trailing white space
     * @return Strip
     */
    static Normalizer strip(boolean left, boolean right) {
        return text -> text.strip(left, right);
    }

    /** @return StripAccents: deletes combining marks (without decomposing first, as Hugging Face) */
    static Normalizer stripAccents() {
        return text -> text.mapCodePoints(c -> CharacterClasses.COMBINING_MARK.contains(c) ? "" : null);
    }

    /**
     * @param pattern what to replace
     * @param content the replacement
     * @return Replace
     */
    static Normalizer replace(TextPattern pattern, String content) {
        return text -> text.replace(pattern, content);
    }

    /**
     * @param prefix the text to put in front of a non-empty piece
     * @return Prepend
     */
    static Normalizer prepend(String prefix) {
        return text -> text.prepend(prefix);
    }

    /** @return Nmt: deletes ASCII controls, maps other white space and U+2581, U+FEFF, U+FFFD to spaces */
    static Normalizer nmt() {
        return text -> text.mapCodePoints(Normalizers::nmt);
    }

    /** @return ByteLevel: every code point becomes the byte-level characters of its UTF-8 bytes */
    static Normalizer byteLevel() {
        return text -> text.mapCodePoints(ByteLevelAlphabet::encodeCodePoint);
    }

    /**
     * @param normalizers the normalizers to apply in order
     * @return Sequence
     */
    static Normalizer sequence(List<Normalizer> normalizers) {
        List<Normalizer> steps = List.copyOf(normalizers);
        return text -> {
            NormalizedText out = text;
            for (Normalizer step : steps) {
                out = step.normalize(out);
            }
            return out;
        };
    }

    private static String nmt(int c) {
        if ((c >= 0x01 && c <= 0x08) || c == 0x0B || (c >= 0x0E && c <= 0x1F) || c == 0x7F || c == 0x8F || c == 0x9F) {
            return "";
        }
        boolean space = c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x1680 || (c >= 0x200B && c <= 0x200F)
                || c == 0x2028 || c == 0x2029 || c == 0x2581 || c == 0xFEFF || c == 0xFFFD;
        return space ? " " : null;
    }
}
