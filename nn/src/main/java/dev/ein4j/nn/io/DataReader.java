package dev.ein4j.nn.io;

import dev.ein4j.ir.DType;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.ZipException;

/**
 * Reads a verified number of elements from a stream, a chunk at a time, straight into the array of
 * their tensor type.
 *
 * <p>When the source's length was checked against the header (a file), the array is allocated at
 * once. When it was not (a stream, a compressed entry whose declared size may lie), the array starts
 * small and doubles as data actually arrives, so a header that claims gigabytes over a short stream
 * costs at most twice the bytes really there before the truncation is reported.
 */
final class DataReader {

    /** Bytes per read: a multiple of every element width. */
    static final int CHUNK = 1 << 16;

    private static final int FIRST_ALLOCATION = 1 << 16;

    private DataReader() {
    }

    /**
     * @param source the file or stream, for messages
     * @param in the data, positioned at the first element
     * @param type the stored element type
     * @param order the stored byte order
     * @param count how many elements to read
     * @param target the tensor type to read them into (the type's own, or float32 for IDX images)
     * @param trusted whether the source is known to hold them (its length was checked)
     * @return the elements
     * @throws TensorFormatException if the stream ends early or a value does not fit
     */
    static Values read(String source, InputStream in, ElementType type, ByteOrder order, int count, DType target,
                       boolean trusted) {
        Values values = Values.allocate(target, trusted ? count : Math.min(count, FIRST_ALLOCATION));
        byte[] chunk = new byte[(int) Math.min(CHUNK, Math.max(Limits.bytes(count, type), 1))];
        ByteBuffer buffer = ByteBuffer.wrap(chunk).order(order);
        int done = 0;
        while (done < count) {
            int n = Math.min(count - done, chunk.length / type.bytes());
            int bytes = n * type.bytes();
            int got = readFully(source, in, chunk, bytes);
            if (got < bytes) {
                long expected = Limits.bytes(count, type);
                throw Limits.fail(source, "truncated: the data needs " + expected + " bytes, only "
                        + ((long) done * type.bytes() + got) + " are there");
            }
            buffer.clear();
            values = values.grownTo(done + n, count);
            values.decode(source, buffer, type, done, n);
            done += n;
        }
        return values;
    }

    /**
     * Reads until {@code length} bytes or the end of the stream.
     *
     * @return the number of bytes read, less than length only at the end of the stream
     */
    static int readFully(String source, InputStream in, byte[] into, int length) {
        try {
            return in.readNBytes(into, 0, length);
        } catch (IOException e) {
            throw failure(source, e);
        }
    }

    /**
     * @param source the file or stream
     * @param in a stream
     * @param length how many bytes to read
     * @param what what they are, for the message
     * @return exactly that many bytes
     * @throws TensorFormatException if the stream ends first
     */
    static byte[] readExactly(String source, InputStream in, int length, String what) {
        byte[] bytes = new byte[length];
        int got = readFully(source, in, bytes, length);
        if (got < length) {
            throw Limits.fail(source, "truncated: reading the " + what + " needs " + length + " bytes, only " + got + " are there");
        }
        return bytes;
    }

    /**
     * @return whether the stream is at its end (reads one byte if it is not)
     */
    static boolean atEnd(String source, InputStream in) {
        try {
            return in.read() < 0;
        } catch (IOException e) {
            throw failure(source, e);
        }
    }

    /**
     * Sorts an I/O failure: a corrupt or truncated compressed stream is a format error, anything else
     * is the I/O's own.
     */
    static RuntimeException failure(String source, IOException e) {
        if (e instanceof ZipException) {
            return new TensorFormatException(source + ": corrupt compressed data: " + e.getMessage(), e);
        }
        if (e instanceof EOFException) {
            return new TensorFormatException(source + ": truncated: " + e.getMessage(), e);
        }
        return new UncheckedIOException(source + ": " + e.getMessage(), e);
    }
}
