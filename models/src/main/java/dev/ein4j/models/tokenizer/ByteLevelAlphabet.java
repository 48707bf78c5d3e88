package dev.ein4j.models.tokenizer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * GPT-2's printable stand-ins for bytes: the 188 bytes that are visible Latin-1 characters stand
 * for themselves, the other 68 (controls, space, U+007F..U+00A0, U+00AD) for U+0100 upwards in byte
 * order. So byte 0x20 (space) is "Ġ" (U+0120) and "é" (bytes C3 A9) is "Ã©".
 */
final class ByteLevelAlphabet {

    private static final char[] CHAR_OF_BYTE = new char[256];
    private static final int[] BYTE_OF_CHAR = new int[0x144];

    static {
        Arrays.fill(BYTE_OF_CHAR, -1);
        int next = 0x100;
        for (int b = 0; b < 256; b++) {
            boolean visible = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            char c = visible ? (char) b : (char) next++;
            CHAR_OF_BYTE[b] = c;
            BYTE_OF_CHAR[c] = b;
        }
    }

    private ByteLevelAlphabet() {
    }

    /**
     * @param text a text without unpaired surrogates
     * @return the stand-ins of its UTF-8 bytes
     */
    static String encode(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        char[] out = new char[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = CHAR_OF_BYTE[bytes[i] & 0xFF];
        }
        return new String(out);
    }

    /**
     * @param codePoint a code point
     * @return the stand-ins of its UTF-8 bytes
     */
    static String encodeCodePoint(int codePoint) {
        StringBuilder out = new StringBuilder(4);
        appendStandIns(codePoint, out);
        return out.toString();
    }

    /**
     * Appends the stand-ins of a code point's UTF-8 bytes.
     *
     * @param codePoint a code point (not a surrogate)
     * @param out where to append
     */
    static void appendStandIns(int codePoint, StringBuilder out) {
        if (codePoint < 0x80) {
            out.append(CHAR_OF_BYTE[codePoint]);
        } else if (codePoint < 0x800) {
            out.append(CHAR_OF_BYTE[0xC0 | (codePoint >> 6)]).append(CHAR_OF_BYTE[0x80 | (codePoint & 0x3F)]);
        } else if (codePoint < 0x10000) {
            out.append(CHAR_OF_BYTE[0xE0 | (codePoint >> 12)]).append(CHAR_OF_BYTE[0x80 | ((codePoint >> 6) & 0x3F)])
                    .append(CHAR_OF_BYTE[0x80 | (codePoint & 0x3F)]);
        } else {
            out.append(CHAR_OF_BYTE[0xF0 | (codePoint >> 18)]).append(CHAR_OF_BYTE[0x80 | ((codePoint >> 12) & 0x3F)])
                    .append(CHAR_OF_BYTE[0x80 | ((codePoint >> 6) & 0x3F)]).append(CHAR_OF_BYTE[0x80 | (codePoint & 0x3F)]);
        }
    }

    /**
     * @param c a character
     * @return the byte it stands for, or -1 if it is not a stand-in
     */
    static int byteOf(char c) {
        return c < BYTE_OF_CHAR.length ? BYTE_OF_CHAR[c] : -1;
    }
}
