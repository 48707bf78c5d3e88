package dev.ein4j.nn.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader for the flat headers of tensor files, and the string quoting of the writer.
 * Objects become {@link LinkedHashMap}s in document order (a repeated key is an error), arrays
 * {@link List}s, strings {@link String}s, numbers {@link Long}s (a fraction, an exponent or a value
 * past 64 bits is an error: the headers hold only lengths and offsets), true and false
 * {@link Boolean}s and null {@link #NULL}. Nesting deeper than {@value #MAX_DEPTH} is an error.
 */
final class Json extends HeaderScanner {

    /** The value of a JSON null. */
    static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    static final int MAX_DEPTH = 32;

    private Json(String source, String text) {
        super(source, text, MAX_DEPTH, " \t\n\r");
    }

    /**
     * @param source the file, for messages
     * @param text the document
     * @return its top-level object
     * @throws TensorFormatException if the text is not one JSON object (with surrounding white space)
     */
    static Map<String, Object> parseObject(String source, String text) {
        Json json = new Json(source, text);
        json.skipWhitespace();
        if (json.peek() != '{') {
            throw json.error("expected '{' at the start of the header");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) json.value();
        json.skipWhitespace();
        if (json.pos != text.length()) {
            throw json.error("unexpected text after the header object");
        }
        return object;
    }

    private Object value() {
        skipWhitespace();
        char c = peek();
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", NULL);
            default -> {
                if (c == '-' || c >= '0' && c <= '9') {
                    yield number();
                }
                throw error(pos >= text.length() ? "unexpected end of the header" : "unexpected character " + describe(c));
            }
        };
    }

    private Map<String, Object> object() {
        enter();
        pos++; // {
        Map<String, Object> object = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            depth--;
            return object;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a string key");
            }
            int keyAt = pos;
            String key = string();
            skipWhitespace();
            expect(':');
            Object value = value();
            if (object.putIfAbsent(key, value) != null) {
                pos = keyAt;
                throw error("duplicate key \"" + key + "\"");
            }
            skipWhitespace();
            if (peek() == ',') {
                pos++;
            } else if (peek() == '}') {
                pos++;
                depth--;
                return object;
            } else {
                throw error("expected ',' or '}' in an object");
            }
        }
    }

    private List<Object> array() {
        enter();
        pos++; // [
        List<Object> array = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            depth--;
            return array;
        }
        while (true) {
            array.add(value());
            skipWhitespace();
            if (peek() == ',') {
                pos++;
            } else if (peek() == ']') {
                pos++;
                depth--;
                return array;
            } else {
                throw error("expected ',' or ']' in an array");
            }
        }
    }

    private String string() {
        pos++; // opening quote
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                pos--;
                throw error("unescaped control character " + describe(c) + " in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char escape = text.charAt(pos++);
            switch (escape) {
                case '"', '\\', '/' -> out.append(escape);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    char unit = hex4();
                    if (Character.isHighSurrogate(unit)) {
                        if (!text.startsWith("\\u", pos)) {
                            throw error("unpaired surrogate \\u" + Integer.toHexString(unit));
                        }
                        pos += 2;
                        char low = hex4();
                        if (!Character.isLowSurrogate(low)) {
                            throw error("unpaired surrogate \\u" + Integer.toHexString(unit));
                        }
                        out.append(unit).append(low);
                    } else if (Character.isLowSurrogate(unit)) {
                        throw error("unpaired surrogate \\u" + Integer.toHexString(unit));
                    } else {
                        out.append(unit);
                    }
                }
                default -> {
                    pos -= 2;
                    throw error("invalid escape \\" + escape);
                }
            }
        }
    }

    private char hex4() {
        if (pos + 4 > text.length()) {
            throw error("truncated \\u escape");
        }
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int digit = Character.digit(text.charAt(pos + i), 16);
            if (digit < 0) {
                throw error("invalid \\u escape");
            }
            value = value * 16 + digit;
        }
        pos += 4;
        return (char) value;
    }

    private Long number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        int digits = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        if (pos == digits) {
            throw error("a number needs digits");
        }
        if (text.charAt(digits) == '0' && pos - digits > 1) {
            pos = start;
            throw error("a number must not have leading zeros");
        }
        char next = peek();
        if (next == '.' || next == 'e' || next == 'E') {
            pos = start;
            throw error("only integers are allowed in the header");
        }
        String literal = text.substring(start, pos);
        try {
            return Long.parseLong(literal);
        } catch (NumberFormatException e) {
            pos = start;
            throw error("the number " + literal + " is too large");
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected character " + describe(peek()));
        }
        pos += word.length();
        return value;
    }

    @Override
    protected String message(String problem) {
        return "malformed JSON header: " + problem + " at character " + pos;
    }

    /**
     * @param value any string
     * @return it as a JSON string literal, quotes included (non-ASCII characters kept as they are)
     */
    static String quote(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
