package dev.ein4j.models.tokenizer;

/**
 * Rust's {@code char::to_lowercase}: the full lowercase mapping of one code point, without context
 * (so a final capital sigma becomes σ, never ς, as in Hugging Face).
 */
final class CaseMapping {

    private CaseMapping() {
    }

    /**
     * @param codePoint a code point
     * @return its lowercase form, or null when it is its own lowercase
     */
    static String lowercase(int codePoint) {
        if (codePoint < 0x80) {
            return codePoint >= 'A' && codePoint <= 'Z' ? String.valueOf((char) (codePoint + 32)) : null;
        }
        if (codePoint == 0x130) {
            return "i\u0307"; // the one unconditional multi-character lowercase mapping
        }
        int lower = Character.toLowerCase(codePoint);
        return lower == codePoint ? null : new String(Character.toChars(lower));
    }
}
