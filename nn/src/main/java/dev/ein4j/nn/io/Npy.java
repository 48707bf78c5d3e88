package dev.ein4j.nn.io;

import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * Reads and writes numpy's {@code .npy} format: the magic {@code \x93NUMPY}, a version, a header
 * {@code {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }} padded to a multiple of 64
 * bytes, then the elements.
 *
 * <pre>{@code
 * Npy.write(Path.of("x.npy"), Tensor.randn(2, 3));      // np.load("x.npy") in Python
 * Tensor y = Npy.read(Path.of("y.npy"));                // written by np.save("y.npy", y)
 * }</pre>
 *
 * <p>Reading takes format versions 1.0, 2.0 and 3.0; float32, float64, int32 and bool in either byte
 * order ({@code <f4 >f4 <f8 >f8 <i4 >i4 |b1}); float16 {@code <f2} widened to float32; int8
 * {@code |i1}, uint8 {@code |u1}, int16 {@code <i2} and uint16 {@code <u2} widened to int32; int64
 * {@code <i8}, uint32 {@code <u4} and uint64 {@code <u8} narrowed to int32 when every value fits
 * (else an error); shapes of any rank, the scalar shape {@code ()} and zero-size shapes included;
 * C order, and Fortran order transposed to C order. Object arrays (pickles), structured, string,
 * complex and date types are rejected with a {@link TensorFormatException}, as are a bad magic or
 * version, a malformed header or one longer than {@value #MAX_HEADER_BYTES} bytes, negative or
 * too large lengths, more than 2<sup>31</sup> − 9 elements, a file whose size is not exactly the
 * header's claim, and a bool byte other than 0 or 1. Nothing the header claims is allocated before
 * it is checked against the file's size.
 *
 * <p>Writing produces exactly numpy's bytes for the same array ({@code np.save}): version 1.0 (2.0
 * when the header needs more than 65535 bytes), little-endian {@code <f4 <f8 <i4 |b1}, C order.
 */
public final class Npy {

    /** The longest header the reader accepts (numpy's own default limit is 10000 characters). */
    public static final int MAX_HEADER_BYTES = 1 << 20;

    private Npy() {
    }

    /**
     * @param file an .npy file
     * @return its array as a tensor
     * @throws TensorFormatException if the file is not a valid .npy of a supported type
     */
    public static Tensor read(Path file) {
        Objects.requireNonNull(file, "file");
        String source = file.toString();
        try (InputStream in = Files.newInputStream(file)) {
            return read(source, in, Files.size(file), true, true);
        } catch (IOException e) {
            throw DataReader.failure(source, e);
        }
    }

    /**
     * Reads one array from a stream and leaves the stream just after it, so that arrays saved one
     * after another to one file ({@code np.save(f, a); np.save(f, b)}) read back in turn. The data
     * is read as it arrives: a header that claims more than the stream holds costs no more memory
     * than the stream's bytes before the truncation is reported.
     *
     * @param in the stream, positioned at the magic; not closed
     * @return the array as a tensor
     * @throws TensorFormatException if the stream does not hold a valid .npy of a supported type
     */
    public static Tensor read(InputStream in) {
        Objects.requireNonNull(in, "in");
        return read("stream", in, -1, false, false);
    }

    /**
     * @param source the file or stream, for messages
     * @param in the stream at the magic
     * @param length the bytes the source declares, or -1 when unknown
     * @param trusted whether the declared length is the real one (a file's size)
     * @param whole whether the array must end the source
     */
    static Tensor read(String source, InputStream in, long length, boolean trusted, boolean whole) {
        byte[] prefix = DataReader.readExactly(source, in, 8, "magic and version");
        if (!Arrays.equals(prefix, 0, 6, NpyHeader.MAGIC, 0, 6)) {
            throw Limits.fail(source, "not an .npy file: it does not start with the magic \\x93NUMPY");
        }
        int major = prefix[6] & 0xff;
        int minor = prefix[7] & 0xff;
        if (major < 1 || major > 3 || minor != 0) {
            throw Limits.fail(source, "unsupported .npy format version " + major + "." + minor + " (1.0, 2.0 and 3.0 are read)");
        }
        int lengthBytes = major == 1 ? 2 : 4;
        ByteBuffer field = ByteBuffer.wrap(Arrays.copyOf(DataReader.readExactly(source, in, lengthBytes, "header length"), 8))
                .order(ByteOrder.LITTLE_ENDIAN);
        long headerLength = field.getLong();
        long dataStart = 8 + lengthBytes + headerLength;
        if (headerLength > MAX_HEADER_BYTES) {
            throw Limits.fail(source, "header length " + headerLength + " exceeds the limit of " + MAX_HEADER_BYTES + " bytes");
        }
        if (length >= 0 && dataStart > length) {
            throw Limits.fail(source, "header length " + headerLength + " runs past the end of the data (" + length + " bytes)");
        }
        byte[] bytes = DataReader.readExactly(source, in, (int) headerLength, "header");
        NpyHeader.Parsed header = NpyHeader.parse(source, decode(source, bytes, major));
        int[] shape = Limits.shape(source, header.shape());
        int count = Limits.count(source, shape);
        long dataBytes = Limits.bytes(count, header.type());
        if (length >= 0 && dataStart + dataBytes != length) {
            throw Limits.fail(source, dataStart + dataBytes > length
                    ? "truncated: shape " + Arrays.toString(shape) + " needs " + dataBytes + " bytes of data, only "
                            + (length - dataStart) + " are there"
                    : (length - dataStart - dataBytes) + " unexpected bytes after the data of shape " + Arrays.toString(shape));
        }
        Values values = DataReader.read(source, in, header.type(), header.order(), count, header.type().target(), trusted);
        if (whole && !DataReader.atEnd(source, in)) {
            throw Limits.fail(source, "unexpected bytes after the data of shape " + Arrays.toString(shape));
        }
        return (header.fortranOrder() ? values.fortranToC(shape) : values).toTensor(shape);
    }

    private static String decode(String source, byte[] bytes, int major) {
        if (major < 3) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new TensorFormatException(source + ": the version 3.0 header is not valid UTF-8", e);
        }
    }

    /**
     * Writes a tensor as numpy's {@code np.save} would write the same array.
     *
     * @param file the file to create or replace
     * @param tensor the tensor (computed now)
     */
    public static void write(Path file, Tensor tensor) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(tensor, "tensor");
        Writing.toFile(file, out -> write(out, tensor, Values.of(tensor)));
    }

    /**
     * Writes a tensor to a stream, as numpy's {@code np.save(f, array)} does to an open file.
     *
     * @param out the destination; not closed
     * @param tensor the tensor (computed now)
     * @throws UncheckedIOException if writing fails
     */
    public static void write(OutputStream out, Tensor tensor) {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(tensor, "tensor");
        try {
            write(out, tensor, Values.of(tensor));
        } catch (IOException e) {
            throw new UncheckedIOException("stream: " + e.getMessage(), e);
        }
    }

    /** Writes the header for the tensor's type and shape, then the values. */
    static void write(OutputStream out, Tensor tensor, Values values) throws IOException {
        out.write(header(tensor));
        values.writeTo(out);
    }

    /** @return the bytes numpy writes before the data of an array of this tensor's type and shape */
    static byte[] header(Tensor tensor) {
        return NpyHeader.wrap(NpyHeader.format(ElementType.of(tensor.dtype()).numpyDescr(), tensor.shape()));
    }
}
