package dev.ein4j.models.tokenizer;

/**
 * Decodes UTF-8 as Rust does: {@code String::from_utf8} (strict) and {@code from_utf8_lossy}, which
 * puts one U+FFFD for each maximal invalid subsequence (the Unicode "substitution of maximal
 * subparts" practice). Java's decoder differs on some sequences (an encoded surrogate ED A0 80 is one
 * replacement for Java, three for Rust), so decoded text would not match Hugging Face's.
 */
final class Utf8 {

    private Utf8() {
    }

    /**
     * @param bytes UTF-8 bytes
     * @param length how many of them to decode
     * @return the text, with U+FFFD for each maximal invalid subsequence
     */
    static String decodeLossy(byte[] bytes, int length) {
        return decode(bytes, length, false);
    }

    /**
     * @param bytes UTF-8 bytes
     * @param length how many of them to decode
     * @return the text, or null if the bytes are not valid UTF-8
     */
    static String decodeStrict(byte[] bytes, int length) {
        return decode(bytes, length, true);
    }

    private static String decode(byte[] bytes, int length, boolean strict) {
        StringBuilder out = new StringBuilder(length);
        int i = 0;
        while (i < length) {
            int lead = bytes[i] & 0xFF;
            if (lead < 0x80) {
                out.append((char) lead);
                i++;
                continue;
            }
            int continuations = lead >= 0xC2 && lead <= 0xDF ? 1 : lead >= 0xE0 && lead <= 0xEF ? 2 : lead >= 0xF0 && lead <= 0xF4 ? 3 : 0;
            // the second byte's range excludes overlong forms, surrogates and code points past U+10FFFF
            int low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
            int high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
            int codePoint = lead & (0x3F >> continuations);
            int next = i + 1;
            boolean complete = continuations > 0;
            for (int k = 0; k < continuations; k++, next++) {
                int b = next < length ? bytes[next] & 0xFF : -1;
                if (b < (k == 0 ? low : 0x80) || b > (k == 0 ? high : 0xBF)) {
                    complete = false;
                    break;
                }
                codePoint = (codePoint << 6) | (b & 0x3F);
            }
            if (complete) {
                out.appendCodePoint(codePoint);
            } else if (strict) {
                return null;
            } else {
                out.append('\uFFFD');
                next = Math.max(next, i + 1);
            }
            i = next;
        }
        return out.toString();
    }
}
