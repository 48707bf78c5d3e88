package dev.ein4j.spark;

import dev.ein4j.nn.Activation;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.Sequential;
import dev.ein4j.nn.optim.Optimizer;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The tests' model (a 64 → 256 → 10 perceptron, 19,210 parameters) and a single-process loop to compare with. */
final class TestModels {

    static final int FEATURES = 64;
    static final int CLASSES = 10;

    private TestModels() {
    }

    /** @return the perceptron, its weights drawn from fixed seeds (so every call gives the same model) */
    static Module perceptron() {
        return new Sequential(new Linear(FEATURES, 256, true, new Generator(11)), Activation.relu(),
                new Linear(256, CLASSES, true, new Generator(12)));
    }

    /**
     * Trains as one process would, on the batches the trainer's epoch plans make.
     *
     * @param model the model
     * @param optimizer its optimizer
     * @param data the examples
     * @param globalBatch n
     * @param epochs epochs
     * @param seed the plans' seed
     * @return each epoch's mean loss
     */
    static List<Double> trainInOneProcess(Module model, Optimizer optimizer, LocalSpark.Teacher data, int globalBatch,
            int epochs, long seed) {
        List<Double> losses = new ArrayList<>();
        int rows = data.labels().length;
        for (int epoch = 1; epoch <= epochs; epoch++) {
            EpochPlan plan = EpochPlan.create(rows, new BatchSplit(globalBatch, 2), true, seed, epoch);
            int[] order = new int[plan.steps() * globalBatch];
            for (int index = 0; index < rows; index++) {
                long position = plan.position(index);
                if (position >= 0) {
                    order[(int) position] = index;
                }
            }
            double sum = 0;
            for (int step = 0; step < plan.steps(); step++) {
                float[] inputs = new float[globalBatch * data.features()];
                int[] labels = new int[globalBatch];
                for (int i = 0; i < globalBatch; i++) {
                    int row = order[step * globalBatch + i];
                    System.arraycopy(data.input(row), 0, inputs, i * data.features(), data.features());
                    labels[i] = data.labels()[row];
                }
                optimizer.zeroGrad();
                Tensor loss = Functional.crossEntropy(model.forward(Tensor.of(inputs, globalBatch, data.features())),
                        Tensor.of(labels, globalBatch));
                loss.backward();
                optimizer.step();
                sum += loss.item();
            }
            losses.add(sum / plan.steps());
        }
        return losses;
    }

    /**
     * @param state a state dict
     * @return each entry's values
     */
    static Map<String, float[]> values(Map<String, Tensor> state) {
        Map<String, float[]> values = new LinkedHashMap<>();
        state.forEach((name, tensor) -> values.put(name, tensor.toFloatArray()));
        return values;
    }
}
