package dev.ein4j.javac;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each character of a string literal's value stands in the source: {@code "a\tb"} has the
 * value {@code a<TAB>b}, whose third character is written four characters after the opening
 * quote. Unicode escapes ({@code \u0041}) are translated first and escape sequences
 * ({@code \t}, {@code \"}, octal {@code \101}, ...) second, as the language defines. Text blocks
 * are not mapped (their indentation is stripped), nor is a literal whose decoded text is not the
 * value javac computed: the caller then points at the literal as a whole.
 */
final class LiteralOffsets {

    /** One character after unicode escapes are translated, and where its source text starts. */
    private record Raw(char character, int offset) {
    }

    private LiteralOffsets() {
    }

    /**
     * @param source the whole compilation unit
     * @param start the offset of the literal's opening quote
     * @param end the offset just past its closing quote
     * @param value the literal's value
     * @param index an index into the value, from 0 to its length (the length: the closing quote)
     * @return the offset in the source of the value's character at {@code index}, or −1 when the
     *         literal cannot be mapped
     */
    static long offsetOf(CharSequence source, int start, int end, String value, int index) {
        if (start < 0 || end > source.length() || end - start < 2 || index < 0 || index > value.length()) {
            return -1;
        }
        List<Raw> raw = translateUnicodeEscapes(source, start, end);
        int last = raw.size() - 1;
        // a literal that goes on after "" is a text block: """...
        boolean textBlock = raw.size() > 2 && raw.get(1).character() == '"';
        if (last < 1 || raw.get(0).character() != '"' || raw.get(last).character() != '"' || textBlock) {
            return -1;
        }
        StringBuilder decoded = new StringBuilder();
        List<Integer> offsets = new ArrayList<>();
        int k = 1;
        while (k < last) {
            offsets.add(raw.get(k).offset());
            char c = raw.get(k).character();
            if (c != '\\' || k + 1 >= last) {
                decoded.append(c);
                k++;
                continue;
            }
            char escape = raw.get(k + 1).character();
            if (escape >= '0' && escape <= '7') {
                int digits = escape <= '3' ? 3 : 2;
                int code = 0;
                int taken = 0;
                while (taken < digits && k + 1 + taken < last && raw.get(k + 1 + taken).character() >= '0'
                        && raw.get(k + 1 + taken).character() <= '7') {
                    code = code * 8 + raw.get(k + 1 + taken).character() - '0';
                    taken++;
                }
                decoded.append((char) code);
                k += 1 + taken;
                continue;
            }
            decoded.append(switch (escape) {
                case 'b' -> '\b';
                case 't' -> '\t';
                case 'n' -> '\n';
                case 'f' -> '\f';
                case 'r' -> '\r';
                case 's' -> ' ';
                default -> escape; // \" \' \\
            });
            k += 2;
        }
        offsets.add(raw.get(last).offset());
        return decoded.toString().equals(value) ? offsets.get(index) : -1;
    }

    /** JLS 3.3: a backslash preceded by an even number of backslashes, then u+ and four hex digits. */
    private static List<Raw> translateUnicodeEscapes(CharSequence source, int start, int end) {
        List<Raw> raw = new ArrayList<>();
        int backslashes = 0;
        int j = start;
        while (j < end) {
            char c = source.charAt(j);
            if (c == '\\' && backslashes % 2 == 0 && j + 1 < end && source.charAt(j + 1) == 'u') {
                int hex = j + 1;
                while (hex < end && source.charAt(hex) == 'u') {
                    hex++;
                }
                if (hex + 4 <= end && isHex(source, hex)) {
                    raw.add(new Raw((char) Integer.parseInt(source.subSequence(hex, hex + 4).toString(), 16), j));
                    backslashes = 0;
                    j = hex + 4;
                    continue;
                }
            }
            backslashes = c == '\\' ? backslashes + 1 : 0;
            raw.add(new Raw(c, j));
            j++;
        }
        return raw;
    }

    private static boolean isHex(CharSequence source, int from) {
        for (int i = from; i < from + 4; i++) {
            if (Character.digit(source.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
