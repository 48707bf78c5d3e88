package dev.ein4j.examples.models;

import dev.ein4j.backend.Backends;
import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.models.AutoModel;
import dev.ein4j.models.ImageClassifier;
import dev.ein4j.models.PretrainedModel;
import dev.ein4j.models.vit.VitForImageClassification;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.optim.AdamW;
import dev.ein4j.nn.optim.Optimizer;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code models finetune DIR [--steps N] [--seed N]}: a loaded image classifier (ViT, ResNet,
 * MobileNetV2, ConvNeXt) gets a new three-class head on its pooled features, and the whole model
 * trains a few AdamW steps on a small synthetic set (noise with a bright band whose row position
 * is the class), printing the loss of each step.
 *
 * <pre>{@code
 * ImageClassifier backbone = (ImageClassifier) AutoModel.load(folder);
 * Linear head = new Linear(backbone.featureSize(), 3);
 * Tensor loss = Functional.crossEntropy(head.forward(backbone.features(images)), labels);
 * }</pre>
 */
public final class FinetuneCommand {

    /** The classes of the synthetic set. */
    public static final int CLASSES = 3;

    private FinetuneCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].startsWith("--")) {
            return RunCommand.fail(err, "usage: models finetune DIR [--steps N] [--seed N]");
        }
        int steps = 20;
        long seed = 7;
        try {
            for (int i = 1; i < args.length; i += 2) {
                if (i + 1 >= args.length || !(args[i].equals("--steps") || args[i].equals("--seed"))) {
                    return RunCommand.fail(err, "unexpected argument '" + args[i] + "'; usage: models finetune DIR [--steps N] [--seed N]");
                }
                if (args[i].equals("--steps")) {
                    steps = Integer.parseInt(args[i + 1]);
                } else {
                    seed = Long.parseLong(args[i + 1]);
                }
            }
        } catch (NumberFormatException bad) {
            return RunCommand.fail(err, "--steps and --seed take integers: " + bad.getMessage());
        }
        try {
            Backends.useConfiguredOr("cpu");
            PretrainedModel model = AutoModel.load(Path.of(args[0]));
            if (!(model instanceof ImageClassifier classifier)) {
                return RunCommand.fail(err, args[0] + ": " + model.architecture() + " is not an image classifier");
            }
            List<Double> losses = train(classifier, steps, seed);
            for (int step = 0; step < losses.size(); step++) {
                out.printf("step %3d  loss %.4f%n", step + 1, losses.get(step));
            }
            return 0;
        } catch (EinopsException | UncheckedIOException error) {
            return RunCommand.fail(err, error.getMessage());
        }
    }

    /**
     * Attaches a new {@value #CLASSES}-class head and trains it with the backbone.
     *
     * @param backbone a loaded image classifier (its own head is left aside)
     * @param steps the AdamW steps, on the whole set each
     * @param seed the seed of the data and the head
     * @return the loss before each step
     */
    public static List<Double> train(ImageClassifier backbone, int steps, long seed) {
        int[] size = imageSize(backbone);
        Generator generator = new Generator(seed);
        Tensor[] data = syntheticBands(generator, 24, backbone.numChannels(), size[0], size[1]);
        Linear head = new Linear(backbone.featureSize(), CLASSES, true, generator);
        List<Tensor> parameters = new ArrayList<>(backbone.parameters());
        parameters.addAll(head.parameters());
        Optimizer optimizer = new AdamW(parameters, 3e-3);
        backbone.train();
        List<Double> losses = new ArrayList<>();
        for (int step = 0; step < steps; step++) {
            try (TensorScope scope = Tensor.scope()) { // each step's tensors go when it ends; steps after the first replay
                optimizer.zeroGrad();
                Tensor loss = Functional.crossEntropy(head.forward(backbone.features(data[0])), data[1]);
                loss.backward();
                optimizer.step();
                losses.add(loss.item());
            }
        }
        backbone.eval();
        return losses;
    }

    /**
     * @param generator the random stream
     * @param count the images
     * @param channels their channels
     * @param height their height
     * @param width their width
     * @return {images [count, c, h, w], labels int32 [count]}: noise N(0, 0.5²) plus 1 on the rows
     *     of band {@code label} (of {@value #CLASSES} equal bands)
     */
    static Tensor[] syntheticBands(Generator generator, int count, int channels, int height, int width) {
        int[] labels = new int[count];
        for (int i = 0; i < count; i++) {
            labels[i] = i % CLASSES;
        }
        Tensor label = Tensor.of(labels);
        Tensor band = Tensor.arange(height).mul(CLASSES).div(height).cast(DType.INT32); // row -> band
        Tensor bright = band.reshape(1, 1, height, 1).eq(label.reshape(count, 1, 1, 1)).cast(DType.FLOAT32);
        Tensor images = Tensor.randn(generator, count, channels, height, width).mul(0.5).add(bright);
        return new Tensor[] {images.realize(), label};
    }

    /** A ViT needs its configured size; the convolutional families take any size, 32x32 here. */
    private static int[] imageSize(ImageClassifier backbone) {
        if (backbone instanceof VitForImageClassification vit) {
            return vit.config().imageSize();
        }
        return new int[] {32, 32};
    }
}
