package dev.ein4j.nn.io;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Reads and writes the <a href="https://github.com/huggingface/safetensors">safetensors</a> format
 * of Hugging Face: an 8-byte little-endian header length, a JSON header
 * {@code {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}, "__metadata__": {...}}},
 * then the tensors' bytes, little-endian and row-major.
 *
 * <pre>{@code
 * SafeTensors.write(Path.of("model.safetensors"), Map.of("fc.weight", w, "fc.bias", b));
 * Map<String, Tensor> weights = SafeTensors.read(Path.of("model.safetensors"));
 * Tensor w2 = weights.get("fc.weight");
 * SafeTensors.write(path, module.stateDict(), Map.of("format", "pt"));   // with metadata
 * }</pre>
 *
 * <p>Types: F32, F64, I32 and BOOL are read and written as float32, float64, int32 and bool. Reading
 * also takes F16 and BF16 (widened to float32, exactly), U8, I8, I16 and U16 (widened to int32), and
 * I64, U32 and U64 when every value fits in int32 (PyTorch's int64 class labels and indices);
 * a value that does not fit is an error, never a silent wrap.
 *
 * <p>The reader is strict: a malformed header (JSON with repeated keys, fractions, unknown fields,
 * non-UTF-8 bytes), a header longer than {@value #MAX_HEADER_BYTES} bytes or past the end of the
 * file, an unknown dtype, a length that is negative or too large, a shape whose bytes differ from
 * its data offsets, offsets outside the buffer or tensors that overlap or leave bytes uncovered, a
 * bool byte other than 0 or 1: each is a {@link TensorFormatException}, thrown before any tensor's
 * memory is allocated. I/O failures are {@link UncheckedIOException}s.
 */
public final class SafeTensors {

    /** The longest header the reader accepts, as the reference implementation. */
    public static final int MAX_HEADER_BYTES = 100_000_000;

    private SafeTensors() {
    }

    /**
     * Reads every tensor of a file.
     *
     * @param file a safetensors file
     * @return the tensors by name, in the order of the header (a mutable map)
     * @throws TensorFormatException if the file is not valid safetensors
     */
    public static Map<String, Tensor> read(Path file) {
        Objects.requireNonNull(file, "file");
        String source = file.toString();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            SafeTensorsHeader header = header(source, channel, size);
            long dataStart = size - header.bufferLength();
            Map<String, Tensor> tensors = new LinkedHashMap<>();
            for (SafeTensorsHeader.Entry entry : header.entries()) {
                channel.position(dataStart + entry.begin());
                InputStream in = Channels.newInputStream(channel);
                Values values = DataReader.read(source + ": tensor '" + entry.name() + "'", in, entry.type(),
                        ByteOrder.LITTLE_ENDIAN, entry.count(), entry.type().target(), true);
                tensors.put(entry.name(), values.toTensor(entry.shape()));
            }
            return tensors;
        } catch (IOException e) {
            throw DataReader.failure(source, e);
        }
    }

    /**
     * Reads the {@code __metadata__} of a file without reading its tensors (the header is still
     * checked against the file in full).
     *
     * @param file a safetensors file
     * @return its string-to-string metadata, empty when it has none
     * @throws TensorFormatException if the file is not valid safetensors
     */
    public static Map<String, String> readMetadata(Path file) {
        Objects.requireNonNull(file, "file");
        String source = file.toString();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return header(source, channel, channel.size()).metadata();
        } catch (IOException e) {
            throw DataReader.failure(source, e);
        }
    }

    private static SafeTensorsHeader header(String source, FileChannel channel, long size) throws IOException {
        if (size < 8) {
            throw Limits.fail(source, "not a safetensors file: " + size + " bytes, fewer than the 8 of the header length");
        }
        InputStream in = Channels.newInputStream(channel.position(0));
        long length = ByteBuffer.wrap(DataReader.readExactly(source, in, 8, "header length"))
                .order(ByteOrder.LITTLE_ENDIAN).getLong();
        if (length < 0 || length > MAX_HEADER_BYTES) {
            throw Limits.fail(source, "header length " + Long.toUnsignedString(length) + " exceeds the limit of "
                    + MAX_HEADER_BYTES + " bytes");
        }
        if (length > size - 8) {
            throw Limits.fail(source, "header length " + length + " runs past the end of the file (" + size + " bytes)");
        }
        byte[] bytes = DataReader.readExactly(source, in, (int) length, "header");
        String json;
        try {
            json = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new TensorFormatException(source + ": the header is not valid UTF-8", e);
        }
        return SafeTensorsHeader.parse(source, json, size - 8 - length);
    }

    /**
     * Writes tensors in name order, without metadata.
     *
     * @param file the file to create or replace
     * @param tensors the tensors by name (computed now)
     * @throws EinopsException if a name is {@code __metadata__} or not valid Unicode
     */
    public static void write(Path file, Map<String, Tensor> tensors) {
        write(file, tensors, Map.of());
    }

    /**
     * Writes tensors in name order, with string-to-string metadata in the header's
     * {@code __metadata__} (omitted when empty). Each tensor's data follows the previous one's; the
     * header is padded with spaces to a multiple of 8 bytes.
     *
     * @param file the file to create or replace
     * @param tensors the tensors by name (computed now)
     * @param metadata free-form metadata, such as {@code {"format": "pt"}}
     * @throws EinopsException if a name is {@code __metadata__} or a string is not
     *     valid Unicode
     */
    public static void write(Path file, Map<String, Tensor> tensors, Map<String, String> metadata) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(tensors, "tensors");
        Objects.requireNonNull(metadata, "metadata");
        Map<String, Tensor> sorted = new TreeMap<>();
        for (Map.Entry<String, Tensor> entry : tensors.entrySet()) {
            String name = Objects.requireNonNull(entry.getKey(), "tensors contains a null name");
            Objects.requireNonNull(entry.getValue(), "tensors contains a null tensor for '" + name + "'");
            if (name.equals(SafeTensorsHeader.METADATA)) {
                throw new EinopsException("a tensor cannot be named " + SafeTensorsHeader.METADATA
                        + ": the name is reserved for the metadata");
            }
            Writing.checkUnicode(name, "tensor name");
            sorted.put(name, entry.getValue());
        }
        Map<String, String> meta = new LinkedHashMap<>();
        for (Map.Entry<String, String> entry : metadata.entrySet()) {
            String key = Objects.requireNonNull(entry.getKey(), "metadata contains a null key");
            meta.put(Writing.checkUnicode(key, "metadata key"), Writing.checkUnicode(
                    Objects.requireNonNull(entry.getValue(), "metadata contains a null value for '" + key + "'"), "metadata value"));
        }
        List<String> names = new ArrayList<>(sorted.keySet());
        List<ElementType> types = new ArrayList<>();
        List<int[]> shapes = new ArrayList<>();
        for (Tensor tensor : sorted.values()) {
            types.add(ElementType.of(tensor.dtype()));
            shapes.add(tensor.shape());
        }
        byte[] header = SafeTensorsHeader.format(names, types, shapes, meta);
        Writing.toFile(file, out -> {
            out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(header.length).array());
            out.write(header);
            for (Tensor tensor : sorted.values()) {
                Values.of(tensor).writeTo(out);
            }
        });
    }
}
