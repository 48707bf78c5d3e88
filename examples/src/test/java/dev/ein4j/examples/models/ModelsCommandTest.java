package dev.ein4j.examples.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.models.AutoModel;
import dev.ein4j.models.ImageClassifier;
import dev.ein4j.models.LanguageModel;
import dev.ein4j.models.PretrainedModel;
import dev.ein4j.nn.io.Npy;
import dev.ein4j.nn.io.SafeTensors;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code models run} and {@code models finetune}: results, and one line on stderr with status 2 for bad input. */
class ModelsCommandTest {

    @TempDir
    Path directory;

    private final CommandOutput command = new CommandOutput();

    private int models(String... args) {
        return command.models(args);
    }

    private String errorLine() {
        return command.errorLine();
    }

    private Path folder(String name, String config) throws IOException {
        return TinyFolders.write(Files.createDirectories(directory.resolve(name)), config, 3);
    }

    /** numpy's bytes for an int64 array (what np.save writes for token ids by default). */
    private static void writeInt64(Path file, long[] values, int... shape) throws IOException {
        String header = "{'descr': '<i8', 'fortran_order': False, 'shape': (" + shape[0] + ", " + shape[1] + "), }";
        int padded = (header.length() + 10 + 1 + 63) / 64 * 64 - 10;
        ByteBuffer bytes = ByteBuffer.allocate(10 + padded + 8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        bytes.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        bytes.putShort((short) padded).put((header + " ".repeat(padded - header.length() - 1) + "\n").getBytes(StandardCharsets.US_ASCII));
        for (long value : values) {
            bytes.putLong(value);
        }
        Files.write(file, bytes.array());
    }

    @Test
    void runWritesTheLogitsOfALanguageModelForInt64AndInt32Ids() throws IOException {
        Path model = folder("gpt2", TinyFolders.GPT2);
        Path input = directory.resolve("ids.npy");
        writeInt64(input, new long[] {1, 7, 3, 49, 0, 12}, 2, 3);
        Path output = directory.resolve("logits.npy");
        assertThat(models("run", model.toString(), "--input", input.toString(), "--output", output.toString())).isZero();
        assertThat(command.out()).contains("float32[2, 3, 50] logits of GPT2LMHeadModel");
        Tensor ids = Tensor.of(new int[] {1, 7, 3, 49, 0, 12}, 2, 3);
        float[] expected = ((LanguageModel) AutoModel.load(model)).logits(ids).toFloatArray();
        assertThat(Npy.read(output).toFloatArray()).isEqualTo(expected);

        Npy.write(input, ids);
        assertThat(models("run", model.toString(), "--output", output.toString(), "--input", input.toString())).isZero();
        assertThat(Npy.read(output).toFloatArray()).isEqualTo(expected);
    }

    @Test
    void runWritesTheLogitsOfAnImageClassifier() throws IOException {
        Path model = folder("vit", TinyFolders.VIT);
        Path input = directory.resolve("pixels.npy");
        Tensor pixels = Tensor.randn(new Generator(5), 2, 3, 16, 16);
        Npy.write(input, pixels);
        Path output = directory.resolve("logits.npy");
        assertThat(models("run", model.toString(), "--input", input.toString(), "--output", output.toString())).isZero();
        assertThat(Npy.read(output).shape()).containsExactly(2, 2);
        assertThat(Npy.read(output).toFloatArray()).isEqualTo(((ImageClassifier) AutoModel.load(model)).logits(pixels).toFloatArray());
    }

    @Test
    void badArgumentsFoldersShapesAndTypesAreOneLineAndStatusTwo() throws IOException {
        Path gpt2 = folder("gpt2", TinyFolders.GPT2);
        Path vit = folder("vit", TinyFolders.VIT);
        Path floats = directory.resolve("floats.npy");
        Npy.write(floats, Tensor.zeros(2, 3));
        Path ids = directory.resolve("ids.npy");
        Npy.write(ids, Tensor.of(new int[] {1, 2, 3}, 1, 3));
        String out = directory.resolve("out.npy").toString();

        assertThat(models()).isEqualTo(2);
        assertThat(models("explode")).isEqualTo(2);
        assertThat(models("run", gpt2.toString(), "--input", ids.toString())).isEqualTo(2);
        assertThat(errorLine()).contains("usage: models run DIR --input X.npy --output Y.npy");
        assertThat(models("run", gpt2.toString(), "--input", ids.toString(), "--output", out, "--fast")).isEqualTo(2);
        assertThat(errorLine()).contains("unexpected argument '--fast'");

        assertThat(models("run", directory.resolve("absent").toString(), "--input", ids.toString(), "--output", out)).isEqualTo(2);
        assertThat(errorLine()).contains("absent: not a directory");
        assertThat(models("run", gpt2.toString(), "--input", floats.toString(), "--output", out)).isEqualTo(2);
        assertThat(errorLine()).contains("GPT2LMHeadModel reads input_ids, int32 or int64 [batch, tokens], got float32[2, 3]");
        assertThat(models("run", vit.toString(), "--input", ids.toString(), "--output", out)).isEqualTo(2);
        assertThat(errorLine()).contains("ViTForImageClassification reads pixel_values, float32 [batch, 3, height, width], got int32[1, 3]");
        Npy.write(floats, Tensor.zeros(1, 3, 8, 8));
        assertThat(models("run", vit.toString(), "--input", floats.toString(), "--output", out)).isEqualTo(2);
        assertThat(errorLine()).contains("position embeddings are for 16x16 images, got 8x8");
        Npy.write(ids, Tensor.of(new int[] {1, 50}, 1, 2));
        assertThat(models("run", gpt2.toString(), "--input", ids.toString(), "--output", out)).isEqualTo(2);
        assertThat(errorLine()).contains("input_ids[0, 1] is 50, outside the vocabulary [0, 50)");
        Files.writeString(ids, "not numpy");
        assertThat(models("run", gpt2.toString(), "--input", ids.toString(), "--output", out)).isEqualTo(2);
        assertThat(errorLine()).startsWith("models: " + ids);
        assertThat(models("run", gpt2.toString(), "--input", directory.resolve("none.npy").toString(), "--output", out))
                .isEqualTo(2);
        errorLine();

        Map<String, Tensor> weights = new java.util.LinkedHashMap<>(SafeTensors.read(gpt2.resolve("model.safetensors")));
        weights.remove("transformer.ln_f.bias");
        weights.remove("transformer.wpe.weight");
        SafeTensors.write(gpt2.resolve("model.safetensors"), weights);
        assertThat(models("run", gpt2.toString(), "--input", floats.toString(), "--output", out)).isEqualTo(2);
        assertThat(errorLine()).contains("(2 problems, nothing was loaded):; missing: transformer.wpe.weight [8, 16]; missing: transformer.ln_f.bias [16]");
        assertThat(Files.exists(Path.of(out))).isFalse();
    }

    /** The README's "Run a Hugging Face model" snippet, on the small folders (ids within their vocabulary). */
    @Test
    void readmeSnippetGivesTheShapesItClaims() throws IOException {
        PretrainedModel model = AutoModel.load(folder("gpt2", TinyFolders.GPT2));
        Tensor logits = ((LanguageModel) model).logits(Tensor.of(new int[] {1, 45, 49}, 1, 3));
        assertThat(logits.shape()).containsExactly(1, 3, 50);
        Tensor ids = Tensor.of(new int[] {3, 4, 5, 6}, 2, 2);
        Tensor padded = ((LanguageModel) model).logits(ids, Tensor.of(new int[] {1, 1, 0, 1}, 2, 2));
        assertThat(padded.shape()).containsExactly(2, 2, 50);
        ImageClassifier vit = (ImageClassifier) AutoModel.load(folder("vit", TinyFolders.VIT));
        Tensor pixels = Tensor.randn(new Generator(8), 3, 3, 16, 16);
        assertThat(vit.logits(pixels).shape()).containsExactly(3, 2);
        assertThat(vit.features(pixels).shape()).containsExactly(3, vit.featureSize());
    }

    @Test
    void finetuningANewHeadOnALoadedViTLowersTheLoss() throws IOException {
        ImageClassifier vit = (ImageClassifier) AutoModel.load(folder("vit", TinyFolders.VIT));
        List<Double> losses = FinetuneCommand.train(vit, 15, 11);
        assertThat(losses.get(0)).isBetween(0.5, 2.5);
        assertThat(losses.get(losses.size() - 1)).as("losses %s", losses).isLessThan(0.5 * losses.get(0));
        assertThat(vit.isTraining()).isFalse();
    }

    @Test
    void finetuneRunsFromTheCommandLine() throws IOException {
        Path vit = folder("vit", TinyFolders.VIT);
        assertThat(models("finetune", vit.toString(), "--steps", "3")).isZero();
        assertThat(command.out().lines().filter(line -> line.startsWith("step")).count()).isEqualTo(3);
        Path gpt2 = folder("gpt2", TinyFolders.GPT2);
        assertThat(models("finetune", gpt2.toString())).isEqualTo(2);
        assertThat(errorLine()).contains("GPT2LMHeadModel is not an image classifier");
        assertThat(models("finetune", vit.toString(), "--steps", "many")).isEqualTo(2);
        errorLine();
    }
}
