package dev.ein4j.nn.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** IDX image and label files, plain and gzipped, from files and streams, whole and limited. */
class IdxTest {

    static final Path FASHION = Path.of("/usr/share/datasets/fashion-mnist");

    @TempDir
    Path dir;

    /** @return an IDX file of unsigned bytes with the given dimensions and data */
    static byte[] idx(int rank, int[] dims, byte[] data) {
        ByteBuffer buffer = ByteBuffer.allocate(4 + 4 * dims.length + data.length);
        buffer.putInt(0x0800 | rank);
        for (int dim : dims) {
            buffer.putInt(dim);
        }
        return buffer.put(data).array();
    }

    static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** 3 images of 2 × 4 pixels: 0, 1, ..., 23 scaled up to cover 0 and 255. */
    static byte[] pixels() {
        byte[] data = new byte[24];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i == 23 ? 255 : i * 11);
        }
        return data;
    }

    private Path file(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void readsImagesScaledToTheUnitInterval(boolean gzipped) throws IOException {
        byte[] bytes = idx(3, new int[] {3, 2, 4}, pixels());
        Path path = file("images.idx", gzipped ? gzip(bytes) : bytes);
        Tensor images = Idx.readImages(path);
        assertThat(images.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(images.shape()).containsExactly(3, 1, 2, 4);
        float[] expected = new float[24];
        for (int i = 0; i < 24; i++) {
            expected[i] = (pixels()[i] & 0xff) / 255f;
        }
        assertThat(images.toFloatArray()).containsExactly(expected);
        assertThat(images.toFloatArray()[23]).isEqualTo(1f);

        Tensor first = Idx.readImages(path, 2);
        assertThat(first.shape()).containsExactly(2, 1, 2, 4);
        assertThat(first.toFloatArray()).containsExactly(Arrays.copyOf(expected, 16));
        assertThat(Idx.readImages(path, 0).shape()).containsExactly(0, 1, 2, 4);
        assertThat(Idx.readImages(path, 100).shape()).containsExactly(3, 1, 2, 4);

        assertThat(Idx.readImages(new ByteArrayInputStream(gzipped ? gzip(bytes) : bytes)).toFloatArray()).containsExactly(expected);
        assertThat(Idx.readImages(new ByteArrayInputStream(gzipped ? gzip(bytes) : bytes), 1).shape()).containsExactly(1, 1, 2, 4);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void readsLabelsAsInt32(boolean gzipped) throws IOException {
        byte[] bytes = idx(1, new int[] {5}, new byte[] {9, 0, 3, (byte) 255, 7});
        Path path = file("labels.idx", gzipped ? gzip(bytes) : bytes);
        Tensor labels = Idx.readLabels(path);
        assertThat(labels.dtype()).isEqualTo(DType.INT32);
        assertThat(labels.toIntArray()).containsExactly(9, 0, 3, 255, 7);
        assertThat(Idx.readLabels(path, 2).toIntArray()).containsExactly(9, 0);
        assertThat(Idx.readLabels(new ByteArrayInputStream(gzipped ? gzip(bytes) : bytes), 4).toIntArray())
                .containsExactly(9, 0, 3, 255);
        assertThat(Idx.readLabels(new ByteArrayInputStream(gzipped ? gzip(bytes) : bytes)).toIntArray())
                .containsExactly(9, 0, 3, 255, 7);
    }

    @Test
    void emptyFilesHoldNoExamples() throws IOException {
        assertThat(Idx.readLabels(file("l", idx(1, new int[] {0}, new byte[0]))).shape()).containsExactly(0);
        assertThat(Idx.readImages(file("i", idx(3, new int[] {0, 28, 28}, new byte[0]))).shape()).containsExactly(0, 1, 28, 28);
    }

    @Test
    void aLimitedGzipStreamIsNotReadToTheEnd() {
        // the data after the first label is missing: reading one label never notices
        byte[] truncated = Arrays.copyOf(idx(1, new int[] {1000}, new byte[1000]), 8 + 1);
        assertThat(Idx.readLabels(new ByteArrayInputStream(gzip(truncated)), 1).toIntArray()).containsExactly(0);
        assertThatThrownBy(() -> Idx.readLabels(new ByteArrayInputStream(gzip(truncated)), 2))
                .isInstanceOf(TensorFormatException.class).hasMessageContaining("truncated");
    }

    @Test
    void theOtherMagicIsNamed() throws IOException {
        Path labels = file("labels", idx(1, new int[] {1}, new byte[1]));
        assertThatThrownBy(() -> Idx.readImages(labels))
                .isInstanceOf(TensorFormatException.class)
                .hasMessageContaining("expected an IDX image file (magic 0x00000803), found magic 0x00000801 (labels)");
        Path images = file("images", idx(3, new int[] {1, 1, 1}, new byte[1]));
        assertThatThrownBy(() -> Idx.readLabels(images))
                .isInstanceOf(TensorFormatException.class).hasMessageContaining("found magic 0x00000803 (images)");
    }

    @Test
    void aNegativeLimitIsAnError() throws IOException {
        Path labels = file("labels", idx(1, new int[] {1}, new byte[1]));
        assertThatThrownBy(() -> Idx.readLabels(labels, -1)).isInstanceOf(EinopsException.class).hasMessageContaining("limit");
    }

    @Test
    void readsTheFirstHundredFashionMnistTrainingExamples() {
        Path images = FASHION.resolve("train-images-idx3-ubyte.gz");
        Path labels = FASHION.resolve("train-labels-idx1-ubyte.gz");
        assumeTrue(Files.isReadable(images) && Files.isReadable(labels), "Fashion-MNIST is not installed at " + FASHION
                + ": the test of the real files is skipped");
        Tensor x = Idx.readImages(images, 100);
        Tensor y = Idx.readLabels(labels, 100);
        assertThat(x.shape()).containsExactly(100, 1, 28, 28);
        assertThat(y.shape()).containsExactly(100);
        float[] pixels = x.toFloatArray();
        double sum = 0;
        for (float p : pixels) {
            assertThat(p).isBetween(0f, 1f);
            sum += p * 255.0;
        }
        assertThat(Math.round(sum)).as("sum of the raw bytes, from numpy").isEqualTo(5688570L);
        assertThat(IntStream.range(0, pixels.length).mapToDouble(i -> pixels[i]).max()).hasValue(1.0);
        assertThat(y.toIntArray()).startsWith(9, 0, 0, 3, 0, 2, 7, 2, 5, 5);
        assertThat(IntStream.of(y.toIntArray())).allMatch(label -> label >= 0 && label <= 9);
    }

    @Test
    void readsTheWholeFashionMnistTestSet() {
        Path labels = FASHION.resolve("t10k-labels-idx1-ubyte.gz");
        Path images = FASHION.resolve("t10k-images-idx3-ubyte.gz");
        assumeTrue(Files.isReadable(images) && Files.isReadable(labels), "Fashion-MNIST is not installed at " + FASHION
                + ": the test of the real files is skipped");
        int[] counts = new int[10];
        for (int label : Idx.readLabels(labels).toIntArray()) {
            counts[label]++;
        }
        assertThat(counts).containsOnly(1000);
        assertThat(Idx.readImages(images).shape()).containsExactly(10000, 1, 28, 28);
    }
}
