package dev.ein4j.nn.io;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JSON header of a safetensors file, checked against the data buffer it describes: every
 * tensor's shape and dtype must need exactly the bytes its data offsets span, and the tensors must
 * tile the buffer, without gap or overlap, from its first byte to its last.
 */
final class SafeTensorsHeader {

    static final String METADATA = "__metadata__";

    private static final Set<String> FIELDS = Set.of("dtype", "shape", "data_offsets");

    /** One tensor: where its bytes lie in the data buffer. */
    record Entry(String name, ElementType type, int[] shape, int count, long begin, long end) {
    }

    private final List<Entry> entries;
    private final Map<String, String> metadata;
    private final long bufferLength;

    private SafeTensorsHeader(List<Entry> entries, Map<String, String> metadata, long bufferLength) {
        this.entries = entries;
        this.metadata = metadata;
        this.bufferLength = bufferLength;
    }

    /** @return the bytes of the data buffer, which the tensors tile */
    long bufferLength() {
        return bufferLength;
    }

    /** @return the tensors in header order */
    List<Entry> entries() {
        return entries;
    }

    /** @return the string-to-string metadata, empty when the header has none */
    Map<String, String> metadata() {
        return metadata;
    }

    /**
     * @param source the file, for messages
     * @param json the header text
     * @param bufferLength the bytes after the header
     * @return the checked header
     * @throws TensorFormatException if the header is malformed or does not describe the buffer
     */
    static SafeTensorsHeader parse(String source, String json, long bufferLength) {
        Map<String, Object> root = Json.parseObject(source, json);
        List<Entry> entries = new ArrayList<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        for (Map.Entry<String, Object> item : root.entrySet()) {
            if (item.getKey().equals(METADATA)) {
                metadata = metadata(source, item.getValue());
            } else {
                entries.add(entry(source, item.getKey(), item.getValue(), bufferLength));
            }
        }
        checkTiling(source, entries, bufferLength);
        return new SafeTensorsHeader(List.copyOf(entries), metadata, bufferLength);
    }

    private static Map<String, String> metadata(String source, Object value) {
        if (!(value instanceof Map<?, ?> map)) {
            throw Limits.fail(source, METADATA + " must be an object of strings, found " + kind(value));
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        for (Map.Entry<?, ?> item : map.entrySet()) {
            if (!(item.getValue() instanceof String text)) {
                throw Limits.fail(source, METADATA + " value of \"" + item.getKey() + "\" must be a string, found "
                        + kind(item.getValue()));
            }
            metadata.put((String) item.getKey(), text);
        }
        return metadata;
    }

    private static Entry entry(String source, String name, Object value, long bufferLength) {
        String what = "tensor '" + name + "'";
        if (!(value instanceof Map<?, ?> fields)) {
            throw Limits.fail(source, what + " must be an object, found " + kind(value));
        }
        for (Object field : fields.keySet()) {
            if (!FIELDS.contains(field)) {
                throw Limits.fail(source, what + " has the unknown field \"" + field + "\" (dtype, shape and data_offsets only)");
            }
        }
        if (!(require(source, what, fields, "dtype") instanceof String code)) {
            throw Limits.fail(source, what + ": dtype must be a string, found " + kind(fields.get("dtype")));
        }
        ElementType type = ElementType.ofCode(code);
        if (type == null) {
            throw Limits.fail(source, what + ": unsupported dtype '" + code + "' (supported: "
                    + String.join(", ", Arrays.stream(ElementType.values()).map(ElementType::code).toList()) + ")");
        }
        long[] dims = integers(source, what + ": shape", require(source, what, fields, "shape"));
        long[] offsets = integers(source, what + ": data_offsets", require(source, what, fields, "data_offsets"));
        if (offsets.length != 2) {
            throw Limits.fail(source, what + ": data_offsets must be [begin, end], found " + Arrays.toString(offsets));
        }
        long begin = offsets[0];
        long end = offsets[1];
        if (begin > end) {
            throw Limits.fail(source, what + ": data_offsets " + Arrays.toString(offsets) + " end before they begin");
        }
        if (end > bufferLength) {
            throw Limits.fail(source, what + ": data_offsets " + Arrays.toString(offsets)
                    + " lie outside the data buffer of " + bufferLength + " bytes");
        }
        int[] shape = Limits.shape(source + ": " + what, dims);
        int count = Limits.count(source, shape);
        long bytes = Limits.bytes(count, type);
        if (bytes != end - begin) {
            throw Limits.fail(source, what + ": shape " + Arrays.toString(shape) + " of " + code + " needs " + bytes
                    + " bytes but data_offsets " + Arrays.toString(offsets) + " span " + (end - begin));
        }
        return new Entry(name, type, shape, count, begin, end);
    }

    private static Object require(String source, String what, Map<?, ?> fields, String field) {
        if (!fields.containsKey(field)) {
            throw Limits.fail(source, what + " has no " + field);
        }
        return fields.get(field);
    }

    private static long[] integers(String source, String what, Object value) {
        if (!(value instanceof List<?> list)) {
            throw Limits.fail(source, what + " must be an array of integers, found " + kind(value));
        }
        long[] numbers = new long[list.size()];
        for (int i = 0; i < numbers.length; i++) {
            if (!(list.get(i) instanceof Long number) || number < 0) {
                throw Limits.fail(source, what + " must hold non-negative integers, found " + list.get(i));
            }
            numbers[i] = number;
        }
        return numbers;
    }

    /** The tensors, in offset order, must cover [0, bufferLength) exactly once. */
    private static void checkTiling(String source, List<Entry> entries, long bufferLength) {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparingLong(Entry::begin).thenComparingLong(Entry::end));
        long covered = 0;
        Entry previous = null;
        for (Entry entry : sorted) {
            if (entry.begin() < covered) {
                throw Limits.fail(source, "the data of tensors '" + previous.name() + "' " + span(previous) + " and '"
                        + entry.name() + "' " + span(entry) + " overlap");
            }
            if (entry.begin() > covered) {
                throw Limits.fail(source, "bytes [" + covered + ", " + entry.begin() + ") of the data buffer belong to no tensor");
            }
            covered = entry.end();
            previous = entry;
        }
        if (covered != bufferLength) {
            throw Limits.fail(source, "the tensors cover " + covered + " bytes but the data buffer holds " + bufferLength
                    + " (bytes [" + covered + ", " + bufferLength + ") belong to no tensor)");
        }
    }

    private static String span(Entry entry) {
        return "[" + entry.begin() + ", " + entry.end() + "]";
    }

    private static String kind(Object value) {
        if (value instanceof Map) {
            return "an object";
        }
        if (value instanceof List) {
            return "an array";
        }
        if (value instanceof String) {
            return "a string";
        }
        return String.valueOf(value);
    }

    /**
     * @param names the tensor names, in the order their data follows
     * @param types their element types
     * @param shapes their shapes
     * @param metadata string-to-string metadata, written first when not empty
     * @return the header as UTF-8, padded with spaces to a multiple of 8 bytes
     */
    static byte[] format(List<String> names, List<ElementType> types, List<int[]> shapes, Map<String, String> metadata) {
        StringBuilder json = new StringBuilder("{");
        if (!metadata.isEmpty()) {
            json.append(Json.quote(METADATA)).append(":{");
            String separator = "";
            for (Map.Entry<String, String> item : metadata.entrySet()) {
                json.append(separator).append(Json.quote(item.getKey())).append(':').append(Json.quote(item.getValue()));
                separator = ",";
            }
            json.append('}');
        }
        long offset = 0;
        for (int i = 0; i < names.size(); i++) {
            int[] shape = shapes.get(i);
            long bytes = Math.multiplyExact(Limits.count("tensor '" + names.get(i) + "'", shape), (long) types.get(i).bytes());
            json.append(json.length() > 1 ? "," : "").append(Json.quote(names.get(i)))
                    .append(":{\"dtype\":\"").append(types.get(i).code()).append("\",\"shape\":[");
            for (int k = 0; k < shape.length; k++) {
                json.append(k > 0 ? "," : "").append(shape[k]);
            }
            json.append("],\"data_offsets\":[").append(offset).append(',').append(offset + bytes).append("]}");
            offset += bytes;
        }
        json.append('}');
        byte[] bytes = json.toString().getBytes(StandardCharsets.UTF_8);
        byte[] padded = Arrays.copyOf(bytes, (bytes.length + 7) / 8 * 8);
        Arrays.fill(padded, bytes.length, padded.length, (byte) ' ');
        return padded;
    }
}
