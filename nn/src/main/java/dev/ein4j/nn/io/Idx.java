package dev.ein4j.nn.io;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.zip.GZIPInputStream;

/**
 * Reads the IDX files of MNIST and Fashion-MNIST, plain or gzipped (told apart by their first bytes,
 * whatever the file name): images, magic {@code 0x00000803}, unsigned bytes [n, rows, cols]; labels,
 * magic {@code 0x00000801}, unsigned bytes [n].
 *
 * <pre>{@code
 * Tensor x = Idx.readImages(Path.of("train-images-idx3-ubyte.gz"));      // float32 [60000, 1, 28, 28] in [0, 1]
 * Tensor y = Idx.readLabels(Path.of("train-labels-idx1-ubyte.gz"));      // int32 [60000]
 * Tensor first = Idx.readImages(Path.of("t10k-images-idx3-ubyte"), 100); // the first 100
 * Tensor fromJar = Idx.readLabels(Main.class.getResourceAsStream("/t10k-labels-idx1-ubyte.gz"));
 * }</pre>
 *
 * <p>A file that is not IDX, has the other magic (labels given for images), an element type other
 * than unsigned bytes, lengths too large, truncated data, corrupt gzip data, or (plain files, whose
 * size is known) bytes after the data is a {@link TensorFormatException}. With a limit, only the
 * first examples are read: the rest of a stream is not decompressed.
 */
public final class Idx {

    /** The magic of an image file: unsigned bytes, 3 dimensions. */
    public static final int IMAGES_MAGIC = 0x00000803;

    /** The magic of a label file: unsigned bytes, 1 dimension. */
    public static final int LABELS_MAGIC = 0x00000801;

    private Idx() {
    }

    /**
     * @param file an IDX image file, plain or gzipped
     * @return every image, float32 [n, 1, rows, cols], each byte divided by 255
     * @throws TensorFormatException if the file is not a valid IDX image file
     */
    public static Tensor readImages(Path file) {
        return readImages(file, Integer.MAX_VALUE);
    }

    /**
     * @param file an IDX image file, plain or gzipped
     * @param limit the most images to read, from the first
     * @return the first min(n, limit) images, float32 [min(n, limit), 1, rows, cols] in [0, 1]
     * @throws TensorFormatException if the file is not a valid IDX image file
     */
    public static Tensor readImages(Path file, int limit) {
        return fromFile(file, limit, true);
    }

    /**
     * @param in an IDX image stream, plain or gzipped, such as a class path resource; not closed
     * @return every image, float32 [n, 1, rows, cols] in [0, 1]
     * @throws TensorFormatException if the stream is not a valid IDX image file
     */
    public static Tensor readImages(InputStream in) {
        return readImages(in, Integer.MAX_VALUE);
    }

    /**
     * @param in an IDX image stream, plain or gzipped; not closed
     * @param limit the most images to read, from the first
     * @return the first min(n, limit) images, float32 [min(n, limit), 1, rows, cols] in [0, 1]
     * @throws TensorFormatException if the stream is not a valid IDX image file
     */
    public static Tensor readImages(InputStream in, int limit) {
        return fromStream(in, limit, true);
    }

    /**
     * @param file an IDX label file, plain or gzipped
     * @return every label, int32 [n]
     * @throws TensorFormatException if the file is not a valid IDX label file
     */
    public static Tensor readLabels(Path file) {
        return readLabels(file, Integer.MAX_VALUE);
    }

    /**
     * @param file an IDX label file, plain or gzipped
     * @param limit the most labels to read, from the first
     * @return the first min(n, limit) labels, int32
     * @throws TensorFormatException if the file is not a valid IDX label file
     */
    public static Tensor readLabels(Path file, int limit) {
        return fromFile(file, limit, false);
    }

    /**
     * @param in an IDX label stream, plain or gzipped; not closed
     * @return every label, int32 [n]
     * @throws TensorFormatException if the stream is not a valid IDX label file
     */
    public static Tensor readLabels(InputStream in) {
        return readLabels(in, Integer.MAX_VALUE);
    }

    /**
     * @param in an IDX label stream, plain or gzipped; not closed
     * @param limit the most labels to read, from the first
     * @return the first min(n, limit) labels, int32
     * @throws TensorFormatException if the stream is not a valid IDX label file
     */
    public static Tensor readLabels(InputStream in, int limit) {
        return fromStream(in, limit, false);
    }

    private static Tensor fromFile(Path file, int limit, boolean images) {
        Objects.requireNonNull(file, "file");
        checkLimit(limit);
        String source = file.toString();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), DataReader.CHUNK)) {
            boolean gzip = isGzip(in);
            return read(source, gzip ? new GZIPInputStream(in, DataReader.CHUNK) : in, gzip ? -1 : Files.size(file),
                    limit, images);
        } catch (IOException e) {
            throw DataReader.failure(source, e);
        }
    }

    private static Tensor fromStream(InputStream in, int limit, boolean images) {
        Objects.requireNonNull(in, "in");
        checkLimit(limit);
        String source = "stream";
        InputStream buffered = new BufferedInputStream(in, DataReader.CHUNK);
        try {
            return read(source, isGzip(buffered) ? new GZIPInputStream(buffered, DataReader.CHUNK) : buffered, -1,
                    limit, images);
        } catch (IOException e) {
            throw DataReader.failure(source, e);
        }
    }

    private static void checkLimit(int limit) {
        if (limit < 0) {
            throw new EinopsException("limit must not be negative, got " + limit);
        }
    }

    private static boolean isGzip(InputStream in) throws IOException {
        in.mark(2);
        int first = in.read();
        int second = in.read();
        in.reset();
        return first == 0x1f && second == 0x8b;
    }

    /**
     * @param length the plain file's size, or -1 for a stream or gzip data
     */
    private static Tensor read(String source, InputStream in, long length, int limit, boolean images) {
        int magic = ByteBuffer.wrap(DataReader.readExactly(source, in, 4, "magic")).getInt();
        int expected = images ? IMAGES_MAGIC : LABELS_MAGIC;
        if (magic != expected) {
            throw Limits.fail(source, String.format("expected an IDX %s file (magic 0x%08X), found magic 0x%08X%s",
                    images ? "image" : "label", expected, magic, describe(magic)));
        }
        int rank = magic & 0xff;
        ByteBuffer dims = ByteBuffer.wrap(DataReader.readExactly(source, in, 4 * rank, "dimensions")).order(ByteOrder.BIG_ENDIAN);
        int[] claimed = new int[rank];
        long total = 1;
        boolean overflow = false;
        for (int i = 0; i < rank; i++) {
            long dim = Integer.toUnsignedLong(dims.getInt());
            if (dim > Integer.MAX_VALUE) {
                throw Limits.fail(source, "length " + dim + " is longer than a dimension can be (" + Integer.MAX_VALUE + ")");
            }
            claimed[i] = (int) dim;
            try {
                total = Math.multiplyExact(total, dim);
            } catch (ArithmeticException e) {
                overflow = true;
            }
        }
        long dataStart = 4 + 4L * rank;
        long end = overflow || total > Long.MAX_VALUE - dataStart ? Long.MAX_VALUE : dataStart + total;
        if (length >= 0 && end != length) {
            throw Limits.fail(source, (end > length ? "truncated: " : "unexpected bytes after the data: ")
                    + "the header claims " + (end == Long.MAX_VALUE ? "more than 2^63" : Long.toString(total))
                    + " bytes of data, the file holds " + (length - dataStart));
        }
        int n = Math.min(claimed[0], limit);
        int[] shape = images ? new int[] {n, 1, claimed[1], claimed[2]} : new int[] {n};
        int count = Limits.count(source, shape);
        Values values = DataReader.read(source, in, ElementType.U8, ByteOrder.BIG_ENDIAN, count,
                images ? DType.FLOAT32 : DType.INT32, length >= 0);
        if (images) {
            float[] pixels = values.floats();
            for (int i = 0; i < pixels.length; i++) {
                pixels[i] /= 255f;
            }
        }
        return values.toTensor(shape);
    }

    private static String describe(int magic) {
        if (magic == IMAGES_MAGIC) {
            return " (images)";
        }
        if (magic == LABELS_MAGIC) {
            return " (labels)";
        }
        if ((magic >>> 16) != 0) {
            return " (not an IDX file)";
        }
        return (magic >>> 8) == 0x08 ? " (unsigned bytes of another rank)" : " (an element type other than unsigned bytes)";
    }
}
