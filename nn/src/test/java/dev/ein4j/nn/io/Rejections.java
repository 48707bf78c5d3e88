package dev.ein4j.nn.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Runs a reader on hostile bytes and checks that it fails the library's way: a
 * {@link TensorFormatException} naming the problem, and (where the JVM can count it) without
 * allocating more than a few megabytes, whatever the header claims.
 */
final class Rejections {

    /** Far below any claim of the hostile files (gigabytes), far above what reading a header costs. */
    static final long ALLOCATION_LIMIT = 32L << 20;

    private Rejections() {
    }

    static void assertRejected(Path dir, String name, byte[] bytes, Function<Path, ?> reader, String message) {
        Path file;
        try {
            file = Files.write(dir.resolve(name.replaceAll("[^A-Za-z0-9]+", "_")), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long before = allocated();
        assertThatThrownBy(() -> reader.apply(file))
                .as(name)
                .isInstanceOf(TensorFormatException.class)
                .hasMessageStartingWith(file.toString())
                .hasMessageContaining(message);
        long used = allocated() - before;
        if (before >= 0) {
            assertThat(used).as(name + ": bytes allocated while rejecting").isLessThan(ALLOCATION_LIMIT);
        }
    }

    /** @return the bytes this thread allocated so far, or -1 where the JVM does not count them */
    static long allocated() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled()) {
            return bean.getThreadAllocatedBytes(Thread.currentThread().getId());
        }
        return -1;
    }

    // ------------------------------------------------------------------ building files

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] le64(long value) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
    }

    static byte[] le32(int value) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }

    static byte[] le16(int value) {
        return new byte[] {(byte) value, (byte) (value >>> 8)};
    }

    /** @return an .npy of version 1.0 with this header text (unpadded) and data */
    static byte[] npy(String header, byte[] data) {
        return concat(NpyHeader.MAGIC, new byte[] {1, 0}, le16(header.length()), ascii(header), data);
    }

    /** @return an .npy whose header has this descr, order and shape text */
    static byte[] npy(String descr, String shape, int dataBytes) {
        return npy("{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }", new byte[dataBytes]);
    }

    /** @return a safetensors file with this header (unpadded) and data */
    static byte[] safetensors(String header, byte[] data) {
        byte[] json = utf8(header);
        return concat(le64(json.length), json, data);
    }
}
