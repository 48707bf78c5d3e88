package dev.ein4j.nn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.autograd.Autograd;
import dev.ein4j.autograd.GradCheck;
import dev.ein4j.ir.DType;
import dev.ein4j.nn.optim.Adam;
import dev.ein4j.nn.optim.AdamW;
import dev.ein4j.nn.optim.Optimizer;
import dev.ein4j.nn.optim.Sgd;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.GradientMode;
import dev.ein4j.tensor.Packed;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Every public method and constructor of the user API, called with null for each reference
 * parameter in turn (the other arguments valid), must throw a NullPointerException whose message
 * is the parameter's name: the call fails at once, naming the culprit, not later inside a backend.
 */
class NullArgumentsTest {

    private static final List<Class<?>> API = List.of(Tensor.class, Ein.class, Axes.class, Generator.class,
            GradientMode.class, Reduction.class, Packed.class, Autograd.class, GradCheck.class, Functional.class,
            LossReduction.class, ConvolutionOptions.class, PoolingOptions.class, AttentionOptions.class, Init.class,
            Module.class, Linear.class, Conv1d.class, Conv2d.class, ConvolutionLayer.class, MaxPool2d.class,
            AvgPool2d.class, Rearrange.class, Reduce.class, EinMix.class, LayerNorm.class, BatchNorm.class,
            BatchNorm1d.class, BatchNorm2d.class, Embedding.class, Dropout.class, MultiHeadAttention.class,
            Sequential.class, Activation.class, Optimizer.class, Sgd.class, Adam.class, AdamW.class, RmsNorm.class,
            GroupNorm.class, RotaryEmbedding.class, RotaryEmbedding.CosSin.class, GatedMlp.class, ConvTranspose2d.class,
            ConvTransposeOptions.class, AdaptiveAvgPool2d.class, Upsample.class, InterpolateOptions.class,
            InterpolationMode.class);

    /**
     * Parameters that take null on purpose, as PyTorch's None: rms_norm's weight is optional in its
     * signature (and in the brief that asked for it).
     */
    private static final List<String> NULLABLE = List.of("Functional.rmsNorm weight");

    @Test
    void everyReferenceParameterIsCheckedAtTheCall() throws Exception {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Class<?> type : API) {
            List<Executable> executables = new ArrayList<>(List.of(type.getDeclaredMethods()));
            executables.addAll(List.of(type.getDeclaredConstructors()));
            for (Executable executable : executables) {
                boolean objectOrEnumMethod = executable.getName().equals("equals")
                        || type.isEnum() && executable.getName().equals("valueOf"); // written by the compiler
                if (!Modifier.isPublic(executable.getModifiers()) || executable.isSynthetic() || objectOrEnumMethod) {
                    continue;
                }
                Parameter[] parameters = executable.getParameters();
                for (int i = 0; i < parameters.length; i++) {
                    if (parameters[i].getType().isPrimitive()
                            || NULLABLE.contains(type.getSimpleName() + "." + executable.getName() + " " + parameters[i].getName())) {
                        continue;
                    }
                    checked++;
                    String problem = callWithNull(type, executable, i);
                    if (problem != null) {
                        problems.add(type.getSimpleName() + "." + executable.getName() + "(" + describe(parameters)
                                + ") with " + parameters[i].getName() + " = null: " + problem);
                    }
                }
            }
        }
        assertThat(checked).as("reference parameters checked").isGreaterThan(150);
        assertThat(problems).isEmpty();
    }

    private static String callWithNull(Class<?> type, Executable executable, int nullIndex) throws Exception {
        Parameter[] parameters = executable.getParameters();
        Object[] arguments = new Object[parameters.length];
        for (int k = 0; k < parameters.length; k++) {
            arguments[k] = k == nullIndex ? null : sample(parameters[k].getType());
        }
        try {
            if (executable instanceof Constructor<?> constructor) {
                constructor.newInstance(arguments);
            } else {
                Method method = (Method) executable;
                Object receiver = Modifier.isStatic(method.getModifiers()) ? null : receiver(type);
                method.invoke(receiver, arguments);
            }
            return "no exception";
        } catch (InvocationTargetException thrown) {
            Throwable cause = thrown.getCause();
            if (!(cause instanceof NullPointerException)) {
                return "threw " + cause;
            }
            String name = parameters[nullIndex].getName();
            return name.equals(cause.getMessage()) ? null : "the message is '" + cause.getMessage() + "', not '" + name + "'";
        }
    }

    private static Object receiver(Class<?> type) {
        if (type == Tensor.class) {
            return Tensor.ones(2, 3);
        }
        if (type == Axes.class) {
            return Axes.of("a", 2);
        }
        if (type == Generator.class) {
            return new Generator(1);
        }
        if (type == Packed.class) {
            return new Packed(Tensor.ones(2), List.of(new int[] {2}));
        }
        if (type == ConvolutionOptions.class) {
            return ConvolutionOptions.defaults();
        }
        if (type == PoolingOptions.class) {
            return PoolingOptions.kernel(2);
        }
        if (type == AttentionOptions.class) {
            return AttentionOptions.defaults();
        }
        if (type == Module.class || type == Linear.class) {
            return new Linear(3, 2);
        }
        if (type == Conv1d.class || type == ConvolutionLayer.class) {
            return new Conv1d(3, 2, 1);
        }
        if (type == Conv2d.class) {
            return new Conv2d(3, 2, 1);
        }
        if (type == MaxPool2d.class) {
            return new MaxPool2d(2);
        }
        if (type == AvgPool2d.class) {
            return new AvgPool2d(2);
        }
        if (type == Rearrange.class) {
            return new Rearrange("a b -> b a");
        }
        if (type == Reduce.class) {
            return new Reduce("a b -> a", Reduction.SUM);
        }
        if (type == EinMix.class) {
            return new EinMix("a b -> a c", "b c", Axes.of("b", 3, "c", 2));
        }
        if (type == LayerNorm.class) {
            return new LayerNorm(3);
        }
        if (type == BatchNorm1d.class || type == BatchNorm.class) {
            return new BatchNorm1d(3);
        }
        if (type == BatchNorm2d.class) {
            return new BatchNorm2d(3);
        }
        if (type == Embedding.class) {
            return new Embedding(4, 3);
        }
        if (type == Dropout.class) {
            return new Dropout(0.5);
        }
        if (type == MultiHeadAttention.class) {
            return new MultiHeadAttention(4, 2);
        }
        if (type == Sequential.class) {
            return new Sequential(new Linear(3, 3));
        }
        if (type == Activation.class) {
            return Activation.relu();
        }
        if (type == RmsNorm.class) {
            return new RmsNorm(3);
        }
        if (type == GroupNorm.class) {
            return new GroupNorm(1, 3);
        }
        if (type == RotaryEmbedding.class) {
            return new RotaryEmbedding(4, 10000.0);
        }
        if (type == RotaryEmbedding.CosSin.class) {
            return new RotaryEmbedding.CosSin(Tensor.ones(1, 2, 4), Tensor.zeros(1, 2, 4));
        }
        if (type == GatedMlp.class) {
            return new GatedMlp(3, 4, false, Activation.silu());
        }
        if (type == ConvTranspose2d.class) {
            return new ConvTranspose2d(3, 2, 1, ConvTransposeOptions.defaults());
        }
        if (type == ConvTransposeOptions.class) {
            return ConvTransposeOptions.defaults();
        }
        if (type == AdaptiveAvgPool2d.class) {
            return new AdaptiveAvgPool2d(1);
        }
        if (type == Upsample.class || type == InterpolateOptions.class) {
            return type == Upsample.class ? new Upsample(InterpolateOptions.size(2)) : InterpolateOptions.size(2);
        }
        if (type == Sgd.class || type == Optimizer.class) {
            return new Sgd(List.of(Tensor.ones(2).requireGrad()), 0.1);
        }
        if (type == Adam.class) {
            return new Adam(List.of(Tensor.ones(2).requireGrad()), 0.1);
        }
        if (type == AdamW.class) {
            return new AdamW(List.of(Tensor.ones(2).requireGrad()), 0.1);
        }
        if (type.isEnum()) {
            return type.getEnumConstants()[0];
        }
        throw new IllegalStateException("no receiver for " + type);
    }

    private static Object sample(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == int.class) {
            return 1;
        }
        if (type == long.class) {
            return 1L;
        }
        if (type == double.class) {
            return 1.0;
        }
        if (type == Tensor.class) {
            return Tensor.ones(2, 3);
        }
        if (type == Tensor[].class) {
            return new Tensor[] {Tensor.ones(2, 3)};
        }
        if (type == String.class) {
            return "a b -> a b";
        }
        if (type == int[].class) {
            return new int[] {2, 3};
        }
        if (type == int[][].class) {
            return new int[][] {{2, 3}};
        }
        if (type == float[].class) {
            return new float[6];
        }
        if (type == double[].class) {
            return new double[6];
        }
        if (type == boolean[].class) {
            return new boolean[6];
        }
        if (type == List.class) {
            return List.of(Tensor.ones(2, 3));
        }
        if (type == Map.class) {
            return Map.of();
        }
        if (type == Axes.class) {
            return Axes.none();
        }
        if (type == DType.class) {
            return DType.FLOAT32;
        }
        if (type == Reduction.class) {
            return Reduction.SUM;
        }
        if (type == LossReduction.class) {
            return LossReduction.MEAN;
        }
        if (type == Generator.class) {
            return new Generator(1);
        }
        if (type == GradCheck.Domain.class) {
            return GradCheck.Domain.ANY;
        }
        if (type == Function.class) {
            return (Function<List<Tensor>, Tensor>) inputs -> inputs.get(0);
        }
        if (type == Supplier.class) {
            return (Supplier<Object>) () -> null;
        }
        if (type == Runnable.class) {
            return (Runnable) () -> { };
        }
        if (type == Double.class) {
            return 1.0;
        }
        if (type == Object.class) {
            return new Object();
        }
        if (type == Module[].class) {
            return new Module[] {new Linear(3, 3)};
        }
        if (type == java.util.function.UnaryOperator.class) {
            return (java.util.function.UnaryOperator<Tensor>) x -> x;
        }
        if (type == ConvolutionOptions.class || type == PoolingOptions.class || type == AttentionOptions.class
                || type == ConvTransposeOptions.class || type == InterpolateOptions.class) {
            return receiver(type);
        }
        if (type == InterpolationMode.class) {
            return InterpolationMode.NEAREST;
        }
        if (type == Activation.class) {
            return Activation.silu();
        }
        throw new IllegalStateException("no sample value for " + type + ": add one to NullArgumentsTest");
    }

    private static String describe(Parameter[] parameters) {
        List<String> names = new ArrayList<>();
        for (Parameter parameter : parameters) {
            names.add(parameter.getType().getSimpleName() + " " + parameter.getName());
        }
        return String.join(", ", names);
    }
}
