package dev.ein4j.examples.fashion;

import dev.ein4j.error.EinopsException;
import dev.ein4j.nn.io.Idx;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fashion-MNIST (Zalando Research, MIT license): 28×28 grey images of ten kinds of clothing, as
 * IDX files. Read from a directory (Debian's {@code dataset-fashion-mnist} installs them under
 * {@value #DEBIAN_DIRECTORY}) or from the subset embedded in this jar (the first 5,000 training and
 * 1,000 test images, see {@code fashion-mnist/NOTICE}).
 *
 * @param trainImages float32 [n, 1, 28, 28], standardized with the training set's mean and deviation
 * @param trainLabels int32 [n]
 * @param testImages float32 [m, 1, 28, 28], standardized alike
 * @param testLabels int32 [m]
 * @param source where the files came from
 */
public record FashionData(float[] trainImages, int[] trainLabels, float[] testImages, int[] testLabels, String source) {

    /** Where Debian's package puts the files. */
    public static final String DEBIAN_DIRECTORY = "/usr/share/datasets/fashion-mnist";
    /** The argument of {@code --data} that selects the embedded subset. */
    public static final String EMBEDDED = "embedded";
    static final int PIXELS = 28 * 28;
    /** Fashion-MNIST's pixel mean and standard deviation (of the training set, in [0, 1]). */
    private static final float MEAN = 0.2860f;
    private static final float STD = 0.3530f;
    private static final String RESOURCES = "/dev/ein4j/examples/fashion-mnist/";

    /**
     * @param location a directory of the four IDX files (gzipped or not), {@value #EMBEDDED}, or
     *     null for Debian's directory when it exists and the embedded subset otherwise
     * @return the data set
     */
    public static FashionData load(String location) {
        if (location == null) {
            location = Files.isDirectory(Path.of(DEBIAN_DIRECTORY)) ? DEBIAN_DIRECTORY : EMBEDDED;
        }
        if (location.equals(EMBEDDED)) {
            return new FashionData(images(resource("train-images-idx3-ubyte.gz")), labels(resource("train-labels-idx1-ubyte.gz")),
                    images(resource("t10k-images-idx3-ubyte.gz")), labels(resource("t10k-labels-idx1-ubyte.gz")),
                    "embedded subset");
        }
        Path directory = Path.of(location);
        return new FashionData(images(Idx.readImages(file(directory, "train-images-idx3-ubyte"))),
                labels(Idx.readLabels(file(directory, "train-labels-idx1-ubyte"))),
                images(Idx.readImages(file(directory, "t10k-images-idx3-ubyte"))),
                labels(Idx.readLabels(file(directory, "t10k-labels-idx1-ubyte"))), directory.toString());
    }

    /** @return the training set's size */
    public int trainSize() {
        return trainLabels.length;
    }

    /** @return the test set's size */
    public int testSize() {
        return testLabels.length;
    }

    /**
     * A batch of training images in the given order.
     *
     * @param order a permutation of the training set
     * @param start the first position in it
     * @param count how many
     * @return [count, 1, 28, 28]
     */
    public Tensor trainBatch(int[] order, int start, int count) {
        return gather(trainImages, order, start, count);
    }

    /**
     * @param order a permutation of the training set
     * @param start the first position in it
     * @param count how many
     * @return int32 [count]
     */
    public Tensor trainBatchLabels(int[] order, int start, int count) {
        int[] batch = new int[count];
        for (int i = 0; i < count; i++) {
            batch[i] = trainLabels[order[start + i]];
        }
        return Tensor.of(batch, count);
    }

    /**
     * @param start the first test image
     * @param count how many
     * @return [count, 1, 28, 28]
     */
    public Tensor testBatch(int start, int count) {
        float[] batch = new float[count * PIXELS];
        System.arraycopy(testImages, start * PIXELS, batch, 0, count * PIXELS);
        return Tensor.of(batch, count, 1, 28, 28);
    }

    private static Tensor gather(float[] images, int[] order, int start, int count) {
        float[] batch = new float[count * PIXELS];
        for (int i = 0; i < count; i++) {
            System.arraycopy(images, order[start + i] * PIXELS, batch, i * PIXELS, PIXELS);
        }
        return Tensor.of(batch, count, 1, 28, 28);
    }

    private static float[] images(Tensor raw) {
        float[] pixels = raw.toFloatArray();
        for (int i = 0; i < pixels.length; i++) {
            pixels[i] = (pixels[i] - MEAN) / STD;
        }
        return pixels;
    }

    private static int[] labels(Tensor raw) {
        return raw.toIntArray();
    }

    private static Path file(Path directory, String name) {
        for (String candidate : new String[] {name + ".gz", name}) {
            Path path = directory.resolve(candidate);
            if (Files.isRegularFile(path)) {
                return path;
            }
        }
        throw new EinopsException("no " + name + "[.gz] in " + directory + " (Fashion-MNIST's IDX files are expected)");
    }

    private static Tensor resource(String name) {
        try (InputStream in = FashionData.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new EinopsException("the embedded Fashion-MNIST subset is missing from the class path: " + name);
            }
            return name.contains("labels") ? Idx.readLabels(in) : Idx.readImages(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
