package dev.ein4j.nn.io;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The header of an .npy file: the Python literal {@code {'descr': '<f4', 'fortran_order': False,
 * 'shape': (2, 3), }}. Parsing accepts the subset of Python literals numpy's {@code literal_eval}
 * sees in such headers (dicts, tuples, lists, quoted strings without escapes, integers, True, False,
 * None) and then requires exactly numpy's three keys with values of the right kinds.
 */
final class NpyHeader extends HeaderScanner {

    static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

    /** numpy pads the header so that the data starts at a multiple of this. */
    private static final int ALIGN = 64;

    /** numpy leaves room for the first length to grow to this many digits. */
    private static final int GROWTH_AXIS_MAX_DIGITS = 21;

    private static final int MAX_DEPTH = 16;

    private static final Set<String> KEYS = Set.of("descr", "fortran_order", "shape");

    /** A parsed header: the stored type and byte order, the layout and the shape. */
    record Parsed(ElementType type, ByteOrder order, boolean fortranOrder, long[] shape) {
    }

    /** A Python tuple, told apart from a parenthesized value and from a list. */
    private record Tuple(List<Object> items) {
    }

    /** Python's None, a valid literal that is never a valid header value. */
    private static final Object NONE = new Object() {
        @Override
        public String toString() {
            return "None";
        }
    };

    private NpyHeader(String source, String text) {
        super(source, text, MAX_DEPTH, " \t\n\r\f");
    }

    /**
     * @param source the file, for messages
     * @param text the header text, padding included
     * @return the header
     * @throws TensorFormatException if it is not a valid header of a supported type
     */
    static Parsed parse(String source, String text) {
        NpyHeader parser = new NpyHeader(source, text);
        Object value = parser.value();
        parser.skipWhitespace();
        if (parser.pos != text.length()) {
            throw parser.error("unexpected text after the header dict");
        }
        if (!(value instanceof Map<?, ?> dict)) {
            throw Limits.fail(source, "the header is not a dict: " + text.strip());
        }
        if (!dict.keySet().equals(KEYS)) {
            throw Limits.fail(source, "the header must have exactly the keys 'descr', 'fortran_order' and 'shape', found "
                    + dict.keySet());
        }
        if (!(dict.get("fortran_order") instanceof Boolean fortran)) {
            throw Limits.fail(source, "fortran_order is not True or False: " + dict.get("fortran_order"));
        }
        if (!(dict.get("shape") instanceof Tuple tuple) || !tuple.items().stream().allMatch(Long.class::isInstance)) {
            throw Limits.fail(source, "shape is not a tuple of integers: " + show(dict.get("shape")));
        }
        long[] shape = tuple.items().stream().mapToLong(Long.class::cast).toArray();
        Object descr = dict.get("descr");
        if (descr instanceof List<?> || descr instanceof Tuple) {
            throw Limits.fail(source, "structured dtypes (a list of fields as descr) are not supported");
        }
        if (!(descr instanceof String name)) {
            throw Limits.fail(source, "descr is not a dtype string: " + show(descr));
        }
        return dtype(source, name, fortran, shape);
    }

    private static Parsed dtype(String source, String descr, boolean fortran, long[] shape) {
        if (descr.length() >= 2 && descr.charAt(1) == 'O') {
            throw Limits.fail(source, "object arrays ('" + descr + "') are not supported: they hold pickled Python objects");
        }
        ElementType type = null;
        ByteOrder order = null;
        if (descr.length() >= 3 && descr.substring(2).matches("[1-9]")) {
            char kind = descr.charAt(1);
            int width = descr.charAt(2) - '0';
            type = ElementType.ofNumpy(kind, width);
            order = switch (descr.charAt(0)) {
                case '<' -> ByteOrder.LITTLE_ENDIAN;
                case '>' -> ByteOrder.BIG_ENDIAN;
                case '=' -> ByteOrder.nativeOrder();
                case '|' -> width == 1 ? ByteOrder.LITTLE_ENDIAN : null;
                default -> null;
            };
        }
        if (type == null || order == null) {
            throw Limits.fail(source, "unsupported dtype '" + descr + "' (supported: float32 <f4, float64 <f8, int32 <i4, "
                    + "bool |b1, either byte order, and float16 <f2, int8 |i1, uint8 |u1, int16 <i2, uint16 <u2 "
                    + "read as wider types, int64 <i8, uint32 <u4 and uint64 <u8 when every value fits in int32)");
        }
        return new Parsed(type, order, fortran, shape);
    }

    // ------------------------------------------------------------------ the literal parser

    private Object value() {
        skipWhitespace();
        char c = peek();
        switch (c) {
            case '{':
                return dict();
            case '(':
                return sequence(')');
            case '[':
                return sequence(']');
            case '\'':
            case '"':
                return string(c);
            default:
                break;
        }
        if (c == '-' || c == '+' || c >= '0' && c <= '9') {
            return integer();
        }
        for (String word : List.of("True", "False", "None")) {
            if (text.startsWith(word, pos) && !isIdentifierPart(pos + word.length())) {
                pos += word.length();
                return word.equals("None") ? NONE : Boolean.valueOf(word.equals("True"));
            }
        }
        throw error(pos >= text.length() ? "unexpected end of the header" : "unexpected character " + describe(c));
    }

    private Map<String, Object> dict() {
        enter();
        pos++;
        Map<String, Object> dict = new LinkedHashMap<>();
        while (true) {
            skipWhitespace();
            if (peek() == '}') {
                pos++;
                depth--;
                return dict;
            }
            int keyAt = pos;
            if (!(value() instanceof String key)) {
                pos = keyAt;
                throw error("dict keys must be strings");
            }
            skipWhitespace();
            expect(':');
            Object value = value();
            if (dict.putIfAbsent(key, value) != null) {
                pos = keyAt;
                throw error("duplicate key '" + key + "'");
            }
            skipWhitespace();
            if (peek() == ',') {
                pos++;
            } else if (peek() != '}') {
                throw error("expected ',' or '}' in the dict");
            }
        }
    }

    /** A tuple or list; {@code (x)} without a comma is x itself, as in Python. */
    private Object sequence(char close) {
        enter();
        pos++;
        List<Object> items = new ArrayList<>();
        boolean trailingComma = false;
        while (true) {
            skipWhitespace();
            if (peek() == close) {
                pos++;
                depth--;
                if (close == ']') {
                    return items;
                }
                return items.size() == 1 && !trailingComma ? items.get(0) : new Tuple(items);
            }
            items.add(value());
            skipWhitespace();
            trailingComma = peek() == ',';
            if (trailingComma) {
                pos++;
            } else if (peek() != close) {
                throw error("expected ',' or '" + close + "'");
            }
        }
    }

    private String string(char quote) {
        int start = ++pos;
        while (pos < text.length() && text.charAt(pos) != quote) {
            char c = text.charAt(pos);
            if (c == '\\' || c == '\n' || c == '\r') {
                throw error("escapes and line breaks in strings are not supported");
            }
            pos++;
        }
        if (pos >= text.length()) {
            throw error("unterminated string");
        }
        return text.substring(start, pos++);
    }

    private Long integer() {
        int start = pos;
        if (peek() == '-' || peek() == '+') {
            pos++;
        }
        int digits = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        if (pos == digits || isIdentifierPart(pos) || peek() == '.') {
            pos = start;
            throw error("invalid number");
        }
        try {
            return Long.parseLong(text.substring(start, pos));
        } catch (NumberFormatException e) {
            pos = start;
            throw error("the number " + text.substring(start, pos) + " is too large");
        }
    }

    private boolean isIdentifierPart(int at) {
        return at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_');
    }

    @Override
    protected String message(String problem) {
        return "malformed header: " + problem + " at character " + pos + " of " + show(text.strip());
    }

    private static String show(Object value) {
        String text = value instanceof Tuple tuple ? "tuple " + tuple.items() : String.valueOf(value);
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    // ------------------------------------------------------------------ writing

    /**
     * @param descr numpy's descr of the type, such as {@code <f4}
     * @param shape the shape
     * @return the dict numpy writes for a C-order array, with its spare space for a longer first length
     */
    static String format(String descr, int[] shape) {
        StringBuilder tuple = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            tuple.append(i > 0 ? ", " : "").append(shape[i]);
        }
        tuple.append(shape.length == 1 ? ",)" : ")");
        String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + tuple + ", }";
        return shape.length == 0 ? dict : dict + " ".repeat(GROWTH_AXIS_MAX_DIGITS - Integer.toString(shape[0]).length());
    }

    /**
     * numpy's {@code _wrap_header_guess_version}: the magic, the version, the header length and the
     * header padded with spaces and a newline so that the data starts at a multiple of 64 bytes;
     * version 1.0 when the length fits in 2 bytes, else 2.0.
     *
     * @param dict the header dict (ASCII)
     * @return the bytes before the data
     */
    static byte[] wrap(String dict) {
        byte[] header = dict.getBytes(StandardCharsets.ISO_8859_1);
        int lengthBytes = 2;
        int total = prefixedLength(header.length, lengthBytes);
        if (total - MAGIC.length - 2 - lengthBytes > 0xffff) {
            lengthBytes = 4;
            total = prefixedLength(header.length, lengthBytes);
        }
        int headerLength = total - MAGIC.length - 2 - lengthBytes;
        byte[] out = Arrays.copyOf(MAGIC, total);
        out[6] = (byte) (lengthBytes == 2 ? 1 : 2);
        out[7] = 0;
        for (int i = 0; i < lengthBytes; i++) {
            out[8 + i] = (byte) (headerLength >>> (8 * i));
        }
        int at = 8 + lengthBytes;
        System.arraycopy(header, 0, out, at, header.length);
        Arrays.fill(out, at + header.length, total - 1, (byte) ' ');
        out[total - 1] = '\n';
        return out;
    }

    /** @return magic, version, length field, header, padding and newline: a multiple of 64 */
    private static int prefixedLength(int headerLength, int lengthBytes) {
        int unpadded = MAGIC.length + 2 + lengthBytes + headerLength + 1;
        return unpadded + (ALIGN - unpadded % ALIGN);
    }
}
