package dev.ein4j.benchmarks.cli;

import dev.ein4j.models.AutoModel;
import dev.ein4j.models.ImageClassifier;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.GradientMode;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Forward passes of Hugging Face image classifiers in evaluation mode: a ResNet-18 and a ViT-Tiny
 * (transformers' configurations of microsoft/resnet-18 and WinKawaks/vit-tiny-patch16-224, random
 * weights), a batch of four 224x224 images.
 *
 * <p>When the environment variable {@value #FOLDERS} names a folder, the models and their inputs
 * come from its subfolders {@code resnet18} and {@code vit-tiny} ({@code save_pretrained} folders
 * with a {@code pixel_values.npy}; {@code compare.py} writes them with transformers, so that
 * PyTorch and ein4j run the same weights on the same pixels). Otherwise the weights are drawn
 * here: matrices N(0, 1/fan_in), norm scales and running variances 1, the rest 0.
 */
final class ModelWorkloads {

    /** The environment variable naming the folder of model folders. */
    static final String FOLDERS = "EIN4J_BENCH_MODELS";

    static final int BATCH = 4;
    static final int IMAGE = 224;

    static final String RESNET18 = """
            {"architectures": ["ResNetForImageClassification"], "embedding_size": 64,
             "hidden_sizes": [64, 128, 256, 512], "depths": [2, 2, 2, 2], "layer_type": "basic",
             "hidden_act": "relu", "num_labels": 1000}""";

    static final String VIT_TINY = """
            {"architectures": ["ViTForImageClassification"], "hidden_size": 192, "num_hidden_layers": 12,
             "num_attention_heads": 3, "intermediate_size": 768, "hidden_act": "gelu", "layer_norm_eps": 1e-12,
             "image_size": 224, "patch_size": 16, "qkv_bias": true, "num_labels": 1000}""";

    private ModelWorkloads() {
    }

    /**
     * @param name {@code resnet18-fwd} or {@code vit-tiny-fwd}
     * @return its definition, timed in milliseconds per batch
     */
    static Workloads.Spec spec(String name) {
        String folder = name.equals("resnet18-fwd") ? "resnet18" : "vit-tiny";
        String config = name.equals("resnet18-fwd") ? RESNET18 : VIT_TINY;
        return new Workloads.Spec(name, Unit.MS_PER_BATCH, 1, () -> trial(folder, config));
    }

    private static Trial trial(String folder, String config) {
        String root = System.getenv(FOLDERS);
        ImageClassifier model;
        Tensor pixels;
        if (root != null && !root.isBlank()) {
            Path directory = Path.of(root, folder);
            model = (ImageClassifier) AutoModel.load(directory);
            Path input = directory.resolve("pixel_values.npy");
            pixels = Files.exists(input) ? Npy.read(input) : Tensor.randn(new Generator(9), BATCH, 3, IMAGE, IMAGE);
        } else {
            model = (ImageClassifier) AutoModel.fromConfig(ModelConfig.parse(folder, config));
            model.loadStateDict(randomWeights(model.stateDict(), new Generator(10)));
            pixels = Tensor.randn(new Generator(9), BATCH, 3, IMAGE, IMAGE);
        }
        Tensor input = pixels.realize();
        Workloads.synchronize();
        return new Trial() {
            @Override
            public void run() {
                GradientMode.noGrad(() -> model.logits(input)).realize();
                Workloads.synchronize();
            }

            @Override
            public String explain() {
                return GradientMode.noGrad(() -> model.logits(input)).explain();
            }

            @Override
            public String summary() {
                return model.architecture() + " on " + (root == null || root.isBlank() ? "random weights" : root + "/" + folder);
            }
        };
    }

    private static Map<String, Tensor> randomWeights(Map<String, Tensor> state, Generator generator) {
        Map<String, Tensor> weights = new LinkedHashMap<>();
        state.forEach((name, tensor) -> {
            Tensor value;
            if (!tensor.dtype().isFloating()) {
                value = tensor;
            } else if (tensor.rank() >= 2 && !name.endsWith("position_embeddings") && !name.endsWith("cls_token")) {
                long fanIn = tensor.size() / tensor.length(0);
                value = Tensor.randn(generator, tensor.shape()).mul(1 / Math.sqrt(fanIn));
            } else if (name.endsWith("running_var") || name.endsWith("weight") && tensor.rank() == 1) {
                value = Tensor.ones(tensor.shape());
            } else {
                value = Tensor.randn(generator, tensor.shape()).mul(0.02);
            }
            weights.put(name, value);
        });
        return weights;
    }
}
