package dev.ein4j.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.models.bert.BertAttention;
import dev.ein4j.models.bert.BertConfig;
import dev.ein4j.models.bert.BertEmbeddings;
import dev.ein4j.models.bert.BertForMaskedLm;
import dev.ein4j.models.bert.BertLayer;
import dev.ein4j.models.bert.BertModel;
import dev.ein4j.models.bert.BertResidualOutput;
import dev.ein4j.models.convnext.ConvNextConfig;
import dev.ein4j.models.convnext.ConvNextForImageClassification;
import dev.ein4j.models.convnext.ConvNextLayer;
import dev.ein4j.models.generation.CausalLanguageModel;
import dev.ein4j.models.generation.DecodeStep;
import dev.ein4j.models.generation.GenerationConfig;
import dev.ein4j.models.generation.GenerationOptions;
import dev.ein4j.models.generation.KeyValueCache;
import dev.ein4j.models.generation.TextGenerator;
import dev.ein4j.models.generation.TokenListener;
import dev.ein4j.models.gpt2.Conv1D;
import dev.ein4j.models.gpt2.Gpt2Attention;
import dev.ein4j.models.gpt2.Gpt2Block;
import dev.ein4j.models.gpt2.Gpt2Config;
import dev.ein4j.models.gpt2.Gpt2LmHeadModel;
import dev.ein4j.models.gpt2.Gpt2Mlp;
import dev.ein4j.models.gpt2.Gpt2Model;
import dev.ein4j.models.llama.LlamaAttention;
import dev.ein4j.models.llama.LlamaConfig;
import dev.ein4j.models.llama.LlamaDecoderLayer;
import dev.ein4j.models.llama.LlamaForCausalLm;
import dev.ein4j.models.llama.LlamaModel;
import dev.ein4j.models.llama.LlamaRope;
import dev.ein4j.models.mobilenetv2.MobileNetV2Config;
import dev.ein4j.models.mobilenetv2.MobileNetV2ConvLayer;
import dev.ein4j.models.mobilenetv2.MobileNetV2ForImageClassification;
import dev.ein4j.models.mobilenetv2.MobileNetV2InvertedResidual;
import dev.ein4j.models.resnet.ResNetConfig;
import dev.ein4j.models.resnet.ResNetConvLayer;
import dev.ein4j.models.resnet.ResNetForImageClassification;
import dev.ein4j.models.resnet.ResNetResidualLayer;
import dev.ein4j.models.vit.VitConfig;
import dev.ein4j.models.vit.VitEmbeddings;
import dev.ein4j.models.vit.VitForImageClassification;
import dev.ein4j.models.vit.VitLayer;
import dev.ein4j.nn.Activation;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.RotaryEmbedding;
import dev.ein4j.tensor.Tensor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Every public method and constructor of the models packages, called with null for each reference
 * parameter in turn (the others valid), throws a NullPointerException whose message is the
 * parameter's name, except the parameters documented as nullable.
 */
class NullArgumentsTest {

    /** Parameters whose javadoc says null means "none". */
    private static final Set<String> NULLABLE = Set.of("keep", "kept", "keyKept", "fallback", "activation", "tokenizer");

    private static final ModelConfig GPT2_JSON = config("gpt2-quick-gelu-unscaled");
    private static final ModelConfig BERT_JSON = config("bert-untied-relu");
    private static final ModelConfig LLAMA_JSON = config("llama-gqa-biases");
    private static final ModelConfig VIT_JSON = config("vit-no-qkv-bias-fp16");
    private static final ModelConfig RESNET_JSON = config("resnet-basic");
    private static final ModelConfig MOBILENET_JSON = config("mobilenetv2-torch-padding");
    private static final ModelConfig CONVNEXT_JSON = config("convnext-no-layer-scale-silu");

    private static ModelConfig config(String fixture) {
        return ModelConfig.read(HfFolders.folder(fixture).resolve(AutoModel.CONFIG));
    }

    private static final Map<Class<?>, Supplier<Object>> SAMPLES = Map.ofEntries(
            Map.entry(Tensor.class, () -> Tensor.zeros(dev.ein4j.ir.DType.INT32, 1, 2)),
            Map.entry(Tensor[].class, () -> new Tensor[] {Tensor.ones(1, 2, 2, 4)}),
            Map.entry(String.class, () -> "relu"),
            Map.entry(String[].class, () -> new String[] {"a"}),
            Map.entry(List.class, () -> List.of()),
            Map.entry(int[].class, () -> new int[] {1}),
            Map.entry(Path.class, () -> HfFolders.folder("resnet-basic")),
            Map.entry(ModelConfig.class, () -> GPT2_JSON),
            Map.entry(Checkpoint.class, () -> Checkpoint.read(HfFolders.folder("resnet-basic"))),
            Map.entry(Module.class, () -> new Linear(2, 2)),
            Map.entry(Activation.class, Activation::relu),
            Map.entry(RotaryEmbedding.CosSin.class, () -> new RotaryEmbedding(4, 10000.0).cosSin(Tensor.arange(2))),
            Map.entry(Gpt2Config.class, () -> Gpt2Config.from(GPT2_JSON)),
            Map.entry(BertConfig.class, () -> BertConfig.from(BERT_JSON)),
            Map.entry(LlamaConfig.class, () -> LlamaConfig.from(LLAMA_JSON)),
            Map.entry(VitConfig.class, () -> VitConfig.from(VIT_JSON)),
            Map.entry(ResNetConfig.class, () -> ResNetConfig.from(RESNET_JSON)),
            Map.entry(MobileNetV2Config.class, () -> MobileNetV2Config.from(MOBILENET_JSON)),
            Map.entry(ConvNextConfig.class, () -> ConvNextConfig.from(CONVNEXT_JSON)),
            Map.entry(LlamaRope.class, () -> LlamaConfig.from(LLAMA_JSON).rope()),
            Map.entry(BertEmbeddings.class, () -> new BertEmbeddings(BertConfig.from(BERT_JSON))),
            Map.entry(PretrainedModel.class, () -> Gpt2LmHeadModel.fromConfig(GPT2_JSON)),
            Map.entry(KeyValueCache.class, NullArgumentsTest::cache),
            Map.entry(DecodeStep.class, () -> DecodeStep.of(cache(), 0, 1)),
            Map.entry(GenerationOptions.class, () -> GenerationOptions.greedy(1)),
            Map.entry(GenerationConfig.class, () -> GenerationConfig.NONE),
            Map.entry(TokenListener.class, () -> (TokenListener) tokens -> { }),
            Map.entry(java.util.function.Consumer.class, () -> (java.util.function.Consumer<String>) text -> { }),
            Map.entry(dev.ein4j.tensor.Generator.class, () -> new dev.ein4j.tensor.Generator(1)));

    private static KeyValueCache cache() {
        return KeyValueCache.allocate(1, 1, 2, 4, 2);
    }

    private static final List<Class<?>> API = List.of(AutoModel.class, ModelConfig.class, Checkpoint.class,
            PretrainedModel.class, LanguageModel.class, ImageClassifier.class, AttentionHeads.class, HfActivations.class,
            ModuleList.class, Wrapper.class, SelfAttention.class, WeightMismatchException.class,
            Gpt2Config.class, Gpt2LmHeadModel.class, Gpt2Model.class, Gpt2Block.class, Gpt2Attention.class, Gpt2Mlp.class,
            Conv1D.class, BertConfig.class, BertForMaskedLm.class, BertModel.class, BertEmbeddings.class, BertLayer.class,
            BertAttention.class, BertResidualOutput.class, LlamaConfig.class, LlamaRope.class, LlamaForCausalLm.class,
            LlamaModel.class, LlamaDecoderLayer.class, LlamaAttention.class, VitConfig.class, VitForImageClassification.class,
            VitEmbeddings.class, VitLayer.class, ResNetConfig.class, ResNetForImageClassification.class, ResNetConvLayer.class,
            ResNetResidualLayer.class, MobileNetV2Config.class, MobileNetV2ForImageClassification.class,
            MobileNetV2ConvLayer.class, MobileNetV2InvertedResidual.class, ConvNextConfig.class,
            ConvNextForImageClassification.class, ConvNextLayer.class, KeyValueCache.class, DecodeStep.class,
            CausalLanguageModel.class, TextGenerator.class, GenerationOptions.class, GenerationConfig.class);

    private static Object receiver(Class<?> type) {
        if (type == ModelConfig.class) {
            return GPT2_JSON;
        }
        if (type == Checkpoint.class) {
            return SAMPLES.get(Checkpoint.class).get();
        }
        if (type == PretrainedModel.class || type == LanguageModel.class || type == Gpt2LmHeadModel.class
                || type == CausalLanguageModel.class) {
            return Gpt2LmHeadModel.fromConfig(GPT2_JSON);
        }
        if (type == ImageClassifier.class || type == VitForImageClassification.class) {
            return VitForImageClassification.fromConfig(VIT_JSON);
        }
        if (type == BertForMaskedLm.class) {
            return BertForMaskedLm.fromConfig(BERT_JSON);
        }
        if (type == LlamaForCausalLm.class) {
            return LlamaForCausalLm.fromConfig(LLAMA_JSON);
        }
        if (type == ResNetForImageClassification.class) {
            return ResNetForImageClassification.fromConfig(RESNET_JSON);
        }
        if (type == MobileNetV2ForImageClassification.class) {
            return MobileNetV2ForImageClassification.fromConfig(MOBILENET_JSON);
        }
        if (type == ConvNextForImageClassification.class) {
            return ConvNextForImageClassification.fromConfig(CONVNEXT_JSON);
        }
        if (type == ModuleList.class) {
            return new ModuleList<>(List.of(new Linear(2, 2)));
        }
        if (type == Wrapper.class) {
            return new Wrapper("dense", new Linear(2, 2));
        }
        if (type == KeyValueCache.class) {
            return cache();
        }
        if (type == DecodeStep.class) {
            return DecodeStep.of(cache(), 0, 1);
        }
        if (type == TextGenerator.class) {
            return TextGenerator.of(Gpt2LmHeadModel.fromConfig(GPT2_JSON));
        }
        if (type == GenerationOptions.class) {
            return GenerationOptions.sampling(2, new dev.ein4j.tensor.Generator(1));
        }
        if (type == SelfAttention.class) {
            return new SelfAttention(4, 2, 2, true, 0.0);
        }
        for (Constructor<?> constructor : type.getConstructors()) {
            Object[] arguments = new Object[constructor.getParameterCount()];
            boolean usable = true;
            for (int i = 0; i < arguments.length; i++) {
                Class<?> parameter = constructor.getParameterTypes()[i];
                Supplier<Object> sample = SAMPLES.get(parameter);
                if (parameter == int.class) {
                    arguments[i] = 2;
                } else if (parameter == boolean.class) {
                    arguments[i] = false;
                } else if (parameter == double.class) {
                    arguments[i] = 0.0;
                } else if (sample != null) {
                    arguments[i] = sample.get();
                } else {
                    usable = false;
                }
            }
            if (usable) {
                try {
                    return constructor.newInstance(arguments);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot make a " + type.getSimpleName(), e);
                }
            }
        }
        return null; // static methods only, or records made by from()
    }

    @Test
    void everyReferenceParameterIsCheckedAtTheCall() throws Exception {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Class<?> type : API) {
            List<Executable> executables = new ArrayList<>(List.of(type.getDeclaredMethods()));
            executables.addAll(List.of(type.getDeclaredConstructors()));
            for (Executable executable : executables) {
                if (!Modifier.isPublic(executable.getModifiers()) || executable.isSynthetic()
                        || executable.getName().equals("equals") || type.isRecord() && executable instanceof Constructor<?>) {
                    continue; // a record's canonical constructor is its components, checked by from()
                }
                Parameter[] parameters = executable.getParameters();
                for (int i = 0; i < parameters.length; i++) {
                    if (parameters[i].getType().isPrimitive() || NULLABLE.contains(parameters[i].getName())) {
                        continue;
                    }
                    checked++;
                    String problem = callWithNull(type, executable, i);
                    if (problem != null) {
                        problems.add(type.getSimpleName() + "." + executable.getName() + " with " + parameters[i].getName()
                                + " = null: " + problem);
                    }
                }
            }
        }
        assertThat(checked).as("reference parameters checked").isGreaterThan(60);
        assertThat(problems).isEmpty();
    }

    private static String callWithNull(Class<?> type, Executable executable, int nullIndex) {
        Parameter[] parameters = executable.getParameters();
        Object[] arguments = new Object[parameters.length];
        for (int k = 0; k < parameters.length; k++) {
            Class<?> parameter = parameters[k].getType();
            if (k == nullIndex) {
                continue;
            }
            arguments[k] = parameter == int.class ? 1 : parameter == double.class ? 1.0 : parameter == boolean.class ? false
                    : SAMPLES.containsKey(parameter) ? SAMPLES.get(parameter).get() : null;
        }
        try {
            if (executable instanceof Constructor<?> constructor) {
                constructor.newInstance(arguments);
            } else {
                Method method = (Method) executable;
                method.invoke(Modifier.isStatic(method.getModifiers()) ? null : receiver(type), arguments);
            }
            return "no exception";
        } catch (InvocationTargetException thrown) {
            Throwable cause = thrown.getCause();
            if (!(cause instanceof NullPointerException)) {
                return "threw " + cause;
            }
            String name = parameters[nullIndex].getName();
            return name.equals(cause.getMessage()) ? null : "the message is '" + cause.getMessage() + "', not '" + name + "'";
        } catch (ReflectiveOperationException e) {
            return "could not call: " + e;
        }
    }
}
