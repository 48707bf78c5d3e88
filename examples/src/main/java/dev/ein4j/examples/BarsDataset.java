package dev.ein4j.examples;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.util.SplittableRandom;

/**
 * The flagship's embedded data: 8×8 grey images of three classes, generated deterministically
 * (no download, the same bytes on every machine). Class 0 has a bright horizontal bar, class 1 a
 * vertical bar, class 2 a bright diagonal; every image has Gaussian noise of σ = 0.3.
 *
 * @param images [n, 1, 8, 8]
 * @param labels the class of each image
 * @param oneHot [n, 3]
 */
record BarsDataset(Tensor images, int[] labels, Tensor oneHot) {

    static final int SIDE = 8;
    static final int CLASSES = 3;

    static BarsDataset generate(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] pixels = new double[count * SIDE * SIDE];
        double[] hot = new double[count * CLASSES];
        int[] labels = new int[count];
        for (int n = 0; n < count; n++) {
            int label = n % CLASSES;
            int position = random.nextInt(SIDE);
            labels[n] = label;
            hot[n * CLASSES + label] = 1.0;
            for (int row = 0; row < SIDE; row++) {
                for (int column = 0; column < SIDE; column++) {
                    boolean lit = switch (label) {
                        case 0 -> row == position;
                        case 1 -> column == position;
                        default -> (row - column + SIDE) % SIDE == position;
                    };
                    pixels[(n * SIDE + row) * SIDE + column] = (lit ? 1.0 : 0.0) + 0.3 * random.nextGaussian();
                }
            }
        }
        return new BarsDataset(Tensor.of(pixels, DType.FLOAT32, count, 1, SIDE, SIDE), labels,
                Tensor.of(hot, DType.FLOAT32, count, CLASSES));
    }
}
