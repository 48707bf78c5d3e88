package dev.ein4j.examples;

import dev.ein4j.backend.Backends;
import dev.ein4j.examples.fashion.FashionData;
import dev.ein4j.examples.fashion.Training;
import dev.ein4j.nn.optim.AdamW;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;

/**
 * {@code vit}: trains {@link VisionTransformer} on Fashion-MNIST (the embedded subset unless
 * {@code --data} says otherwise) and prints the loss and the test accuracy per epoch.
 */
public final class VisionTransformerExample {

    private VisionTransformerExample() {
    }

    /** @param args {@code [--epochs N] [--data DIR|embedded] [--backend NAME]} */
    public static void main(String[] args) {
        int epochs = 3;
        String data = FashionData.EMBEDDED;
        String backend = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--epochs" -> epochs = Integer.parseInt(args[i + 1]);
                case "--data" -> data = args[i + 1];
                case "--backend" -> backend = args[i + 1];
                default -> {
                    System.err.println("unknown option " + args[i] + "; usage: vit [--epochs N] [--data DIR|embedded] [--backend NAME]");
                    System.exit(2);
                }
            }
        }
        if (backend != null) {
            Backends.use(backend);
        } else {
            Backends.useConfiguredOr("cpu");
        }
        FashionData dataset = FashionData.load(data);
        Tensor.manualSeed(3);
        VisionTransformer model = new VisionTransformer(64, 4, 2, new Generator(3));
        System.out.println(model);
        System.out.printf("%,d parameters, backend %s, %s%n", model.parameterCount(), Backends.current().name(), dataset.source());
        Training training = new Training(model, new AdamW(model.parameters(), 2e-3), dataset, 64, 3);
        for (int epoch = 1; epoch <= epochs; epoch++) {
            long start = System.nanoTime();
            double loss = training.epoch((done, value) -> { }).stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
            System.out.printf("epoch %d: loss %.4f, test accuracy %.2f%%, %.1f s%n", epoch, loss, 100 * training.testAccuracy(),
                    (System.nanoTime() - start) / 1e9);
        }
    }
}
