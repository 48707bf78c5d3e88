package dev.ein4j.examples;

import dev.ein4j.backend.Backends;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.GradientMode;
import dev.ein4j.tensor.Tensor;

/**
 * The flagship example: a tiny attention classifier, written entirely as einops/einsum patterns,
 * trained with automatic differentiation on embedded data (8×8 images of bars, three classes).
 * Prints the plan of the patch rearrange, the loss as it falls, and the accuracy on held-out images.
 *
 * <p>Run: {@code java -jar examples/target/ein4j-examples.jar [steps]}; the backend is chosen by
 * {@code -Dein4j.backend=NAME} or {@code EIN4J_BACKEND} (default: {@code cpu}, so that no other
 * backend's driver is loaded unless named).
 */
public final class Flagship {

    private Flagship() {
    }

    /** @param args optional number of training steps (default 150) */
    public static void main(String[] args) {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 150;
        System.out.println("ein4j flagship: a one-block attention classifier written as patterns");
        Backends.useConfiguredOr("cpu");
        System.out.println("backend: " + Backends.current().name());
        System.out.println();
        System.out.println(Ein.explainRearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)",
                dev.ein4j.tensor.Axes.of("p1", 4, "p2", 4), 240, 1, 8, 8));
        System.out.println(Ein.explainEinsum("b i e, b j e -> b i j", new int[] {240, 4, 16}, new int[] {240, 4, 16}));
        System.out.println();

        BarsDataset train = BarsDataset.generate(240, 7);
        BarsDataset test = BarsDataset.generate(90, 8);
        TinyAttentionClassifier model = new TinyAttentionClassifier(42);
        double first = Double.NaN;
        double last = Double.NaN;
        for (int step = 1; step <= steps; step++) {
            Tensor loss = TinyAttentionClassifier.crossEntropy(model.logits(train.images()), train.oneHot());
            loss.backward();
            last = loss.item();
            if (step == 1) {
                first = last;
            }
            if (step == 1 || step % 10 == 0) {
                System.out.printf("step %3d  loss %.4f%n", step, last);
            }
            model.step(0.5);
        }
        double accuracy = GradientMode.noGrad(() -> accuracy(model, test));
        System.out.printf("%nloss %.4f -> %.4f, held-out accuracy %.1f%% (chance 33.3%%)%n", first, last, 100 * accuracy);
    }

    static double accuracy(TinyAttentionClassifier model, BarsDataset data) {
        float[] logits = model.logits(data.images()).toFloatArray();
        int correct = 0;
        for (int n = 0; n < data.labels().length; n++) {
            int best = 0;
            for (int k = 1; k < BarsDataset.CLASSES; k++) {
                if (logits[n * BarsDataset.CLASSES + k] > logits[n * BarsDataset.CLASSES + best]) {
                    best = k;
                }
            }
            correct += best == data.labels()[n] ? 1 : 0;
        }
        return correct / (double) data.labels().length;
    }
}
