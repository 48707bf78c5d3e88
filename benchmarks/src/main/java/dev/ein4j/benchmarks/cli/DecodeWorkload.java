package dev.ein4j.benchmarks.cli;

import dev.ein4j.models.AutoModel;
import dev.ein4j.models.ModelConfig;
import dev.ein4j.models.PretrainedModel;
import dev.ein4j.models.generation.GenerationConfig;
import dev.ein4j.models.generation.GenerationOptions;
import dev.ein4j.models.generation.TextGenerator;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code gpt2-decode}: greedy generation with the key/value cache on a GPT-2 small shape (12 layers,
 * width 768, 12 heads, vocabulary 50257, 1024 positions; 124 M parameters, 498 MB of float32), batch
 * 1, a 32-token prompt and 32 new tokens, no stop token (every run adds all 32). One timed run is the
 * whole {@link TextGenerator#generate} call: the prompt's pass, 31 decode steps and the host-side
 * choices; the figure is new tokens per second of it.
 *
 * <p>When the environment variable {@value ModelWorkloads#FOLDERS} names a folder, the model and
 * prompt come from its subfolder {@code gpt2} (a {@code save_pretrained} folder with an
 * {@code input_ids.npy}, written by {@code compare.py} with transformers, which runs the same weights
 * on the same prompt); otherwise the weights are drawn here, as GPT-2's initialization: matrices
 * N(0, 0.02²), layer-norm scales 1, biases 0.
 */
final class DecodeWorkload {

    static final int PROMPT = 32;
    static final int NEW_TOKENS = 32;

    static final String GPT2_SMALL = """
            {"architectures": ["GPT2LMHeadModel"], "vocab_size": 50257, "n_positions": 1024, "n_embd": 768,
             "n_layer": 12, "n_head": 12}""";

    private DecodeWorkload() {
    }

    /** @return the definition of {@code gpt2-decode}, in new tokens per second */
    static Workloads.Spec spec() {
        return new Workloads.Spec("gpt2-decode", Unit.TOKENS_PER_SECOND, NEW_TOKENS, DecodeWorkload::trial);
    }

    private static Trial trial() {
        String root = System.getenv(ModelWorkloads.FOLDERS);
        PretrainedModel model;
        Tensor prompt;
        if (root != null && !root.isBlank()) {
            Path directory = Path.of(root, "gpt2");
            model = AutoModel.load(directory);
            Path input = directory.resolve("input_ids.npy");
            prompt = Files.exists(input) ? Npy.read(input) : randomPrompt();
        } else {
            model = AutoModel.fromConfig(ModelConfig.parse("gpt2-small", GPT2_SMALL));
            model.loadStateDict(randomWeights(model.stateDict(), new Generator(11)));
            prompt = randomPrompt();
        }
        Tensor ids = prompt.realize();
        TextGenerator generator = TextGenerator.of(model);
        GenerationOptions options = GenerationOptions.greedy(NEW_TOKENS).stopTokens(GenerationConfig.NONE);
        return new Trial() {
            private int[] last = new int[0];

            @Override
            public void run() {
                Tensor generated = generator.generate(ids, options);
                if (generated.length(1) != PROMPT + NEW_TOKENS) {
                    throw new IllegalStateException("generated " + generated.length(1) + " positions, not " + (PROMPT + NEW_TOKENS));
                }
                last = generated.toIntArray(); // the tensor is closed with the run's scope
            }

            @Override
            public String explain() {
                return "gpt2-decode runs " + NEW_TOKENS + " realizations of a cached decoder; see TextGenerator";
            }

            @Override
            public String summary() {
                int[] tokens = last;
                StringBuilder tail = new StringBuilder();
                for (int i = Math.max(0, tokens.length - 4); i < tokens.length; i++) {
                    tail.append(i > tokens.length - 4 ? " " : "").append(tokens[i]);
                }
                return model.architecture() + " on " + (root == null || root.isBlank() ? "random weights" : root + "/gpt2")
                        + ", last tokens [" + tail + "]";
            }
        };
    }

    private static Tensor randomPrompt() {
        return Tensor.randint(new Generator(12), 0, 50257, 1, PROMPT);
    }

    private static Map<String, Tensor> randomWeights(Map<String, Tensor> state, Generator generator) {
        Map<String, Tensor> weights = new LinkedHashMap<>();
        state.forEach((name, tensor) -> {
            boolean norm = name.contains(".ln_") || name.startsWith("transformer.ln_f");
            Tensor value = tensor.rank() >= 2 ? Tensor.randn(generator, tensor.shape()).mul(0.02)
                    : norm && name.endsWith("weight") ? Tensor.ones(tensor.shape()) : Tensor.zeros(tensor.shape());
            weights.put(name, value);
        });
        return weights;
    }
}
