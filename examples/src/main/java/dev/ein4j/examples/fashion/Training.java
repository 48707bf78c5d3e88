package dev.ein4j.examples.fashion;

import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.optim.Optimizer;
import dev.ein4j.tensor.GradientMode;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Mini-batch training and evaluation of a classifier on {@link FashionData}. */
public final class Training {

    private final Module model;
    private final Optimizer optimizer;
    private final FashionData data;
    private final int batchSize;
    private final Random shuffler;

    /**
     * @param model the classifier: images [b, 1, 28, 28] to logits [b, 10]
     * @param optimizer over the model's parameters
     * @param data the data set
     * @param batchSize images per step
     * @param seed the seed of the shuffling
     */
    public Training(Module model, Optimizer optimizer, FashionData data, int batchSize, long seed) {
        this.model = model;
        this.optimizer = optimizer;
        this.data = data;
        this.batchSize = batchSize;
        this.shuffler = new Random(seed);
    }

    /** What a step reports: the images done so far in the epoch and the batch's loss. */
    public interface StepListener {
        /**
         * @param imagesDone images trained on so far in this epoch
         * @param loss the batch's mean loss
         */
        void afterStep(int imagesDone, double loss);
    }

    /**
     * One pass over the shuffled training set (the last partial batch is dropped).
     *
     * @param listener told after every step
     * @return each step's loss
     */
    public List<Double> epoch(StepListener listener) {
        model.train();
        int[] order = permutation(data.trainSize());
        List<Double> losses = new ArrayList<>();
        int steps = data.trainSize() / batchSize;
        for (int step = 0; step < steps; step++) {
            double value;
            try (TensorScope scope = Tensor.scope()) { // the step's batch, activations and gradients of intermediates
                Tensor images = data.trainBatch(order, step * batchSize, batchSize);
                Tensor labels = data.trainBatchLabels(order, step * batchSize, batchSize);
                optimizer.zeroGrad();
                Tensor loss = Functional.crossEntropy(model.forward(images), labels);
                loss.backward();
                optimizer.step();
                value = loss.item();
            }
            losses.add(value);
            listener.afterStep((step + 1) * batchSize, value);
        }
        return losses;
    }

    /** @return the fraction of test images classified correctly (evaluation mode, no gradients) */
    public double testAccuracy() {
        model.eval();
        return GradientMode.noGrad(() -> {
            int correct = 0;
            int chunk = 500;
            for (int start = 0; start < data.testSize(); start += chunk) {
                int count = Math.min(chunk, data.testSize() - start);
                int[] predicted;
                try (TensorScope scope = Tensor.scope()) {
                    predicted = model.forward(data.testBatch(start, count)).argmax(1, false).toIntArray();
                }
                for (int i = 0; i < count; i++) {
                    correct += predicted[i] == data.testLabels()[start + i] ? 1 : 0;
                }
            }
            return correct / (double) data.testSize();
        });
    }

    private int[] permutation(int size) {
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        for (int i = size - 1; i > 0; i--) {
            int j = shuffler.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }
}
