package dev.ein4j.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedOutputStream;
import dev.ein4j.nn.Linear;
import dev.ein4j.onnx.proto.Attribute;
import dev.ein4j.onnx.proto.ElementType;
import dev.ein4j.onnx.proto.Graph;
import dev.ein4j.onnx.proto.Model;
import dev.ein4j.onnx.proto.OperatorNode;
import dev.ein4j.onnx.proto.OperatorSetId;
import dev.ein4j.onnx.proto.TensorData;
import dev.ein4j.onnx.proto.ValueInfo;
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
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every public method and constructor of the onnx packages, called with null for each reference
 * parameter in turn (the others valid), throws a NullPointerException whose message is the
 * parameter's name; a symbolic dimension's symbol is the one parameter where null means "none".
 */
class NullArgumentsTest {

    private static final Set<String> NULLABLE = Set.of("symbol");

    @TempDir
    Path directory;

    private final Tensor x = Tensor.randn(4, 4).realize();

    @Test
    void nullArgumentsAreNamed() throws Exception {
        List<Class<?>> classes = List.of(Onnx.class, ExportOptions.class, ExportedModel.class, Attribute.class,
                ElementType.class, Graph.class, Model.class, OperatorNode.class, OperatorSetId.class, TensorData.class,
                ValueInfo.class, ValueInfo.Dimension.class);
        int checked = 0;
        for (Class<?> type : classes) {
            List<Executable> executables = new ArrayList<>(List.of(type.getConstructors()));
            for (Method method : type.getDeclaredMethods()) {
                if (Modifier.isPublic(method.getModifiers()) && !method.isSynthetic()
                        && !Set.of("equals", "toString", "hashCode", "valueOf").contains(method.getName())) {
                    executables.add(method);
                }
            }
            for (Executable executable : executables) {
                checked += check(type, executable);
            }
        }
        assertThat(checked).isGreaterThan(40);
    }

    private int check(Class<?> type, Executable executable) throws Exception {
        Parameter[] parameters = executable.getParameters();
        int checked = 0;
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i].getType().isPrimitive() || NULLABLE.contains(parameters[i].getName())) {
                continue;
            }
            Object[] arguments = new Object[parameters.length];
            for (int j = 0; j < parameters.length; j++) {
                arguments[j] = j == i ? null : valid(parameters[j]);
            }
            String what = type.getSimpleName() + "." + executable.getName() + " parameter " + parameters[i].getName();
            Throwable thrown = invoke(type, executable, arguments);
            assertThat(thrown).as(what).isInstanceOf(NullPointerException.class);
            assertThat(thrown.getMessage()).as(what).isEqualTo(parameters[i].getName());
            checked++;
        }
        return checked;
    }

    private Throwable invoke(Class<?> type, Executable executable, Object[] arguments) throws Exception {
        try {
            if (executable instanceof Constructor<?> constructor) {
                constructor.newInstance(arguments);
            } else {
                Method method = (Method) executable;
                method.invoke(Modifier.isStatic(method.getModifiers()) ? null : receiver(type), arguments);
            }
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        }
    }

    private Object receiver(Class<?> type) {
        if (type == ExportOptions.class) {
            return ExportOptions.defaults();
        }
        if (type == TensorData.class) {
            return scalar();
        }
        if (type == OperatorNode.class) {
            return new OperatorNode("Identity", List.of("a"), List.of("b"), "b", List.of());
        }
        if (type == Model.class) {
            return new Model(8, List.of(new OperatorSetId("", 17)), "p", "1", "", emptyGraph());
        }
        if (type == Graph.class) {
            return emptyGraph();
        }
        if (type == Attribute.class) {
            return Attribute.ofInt("axis", 0);
        }
        if (type == ValueInfo.class) {
            return new ValueInfo("v", ElementType.FLOAT, List.of(ValueInfo.Dimension.of(2)));
        }
        if (type == ValueInfo.Dimension.class) {
            return ValueInfo.Dimension.symbolic("batch");
        }
        if (type == OperatorSetId.class) {
            return new OperatorSetId("", 17);
        }
        if (type == ExportedModel.class) {
            return new ExportedModel(directory.resolve("m.onnx"), 0, List.of(), List.of(), Map.of(), 0, 0);
        }
        throw new AssertionError("no receiver for " + type);
    }

    private static TensorData scalar() {
        return TensorData.ofFloats("s", new long[0], new float[] {1});
    }

    private static Graph emptyGraph() {
        return new Graph("g", List.of(), List.of(), List.of(), List.of());
    }

    private Object valid(Parameter parameter) {
        Class<?> type = parameter.getType();
        String name = parameter.getName();
        if (type == long.class) {
            return 8L;
        }
        if (type == int.class) {
            return 1;
        }
        if (type == float.class) {
            return 1f;
        }
        if (type == List.class) {
            return name.equals("sampleInputs") ? List.of(x) : List.of();
        }
        if (type == Linear.class || type == dev.ein4j.nn.Module.class) {
            return new Linear(4, 2).eval();
        }
        if (type == Path.class) {
            return directory.resolve("valid.onnx");
        }
        if (type == ExportOptions.class) {
            return ExportOptions.defaults();
        }
        if (type == Function.class) {
            return (Function<List<Tensor>, List<Tensor>>) in -> List.of(in.get(0).exp());
        }
        if (type == String.class) {
            return "a";
        }
        if (type == String[].class) {
            return new String[] {"a"};
        }
        if (type == Map.class) {
            return Map.of();
        }
        if (type == dev.ein4j.ir.DType.class) {
            return dev.ein4j.ir.DType.FLOAT32;
        }
        if (type == ElementType.class) {
            return ElementType.FLOAT;
        }
        if (type == long[].class) {
            return new long[0];
        }
        if (type == byte[].class) {
            return new byte[4];
        }
        if (type == int[].class) {
            return new int[] {1};
        }
        if (type == float[].class) {
            return new float[] {1};
        }
        if (type == double[].class) {
            return new double[] {1};
        }
        if (type == boolean[].class) {
            return new boolean[] {true};
        }
        if (type == TensorData.class) {
            return scalar();
        }
        if (type == Graph.class) {
            return emptyGraph();
        }
        if (type == CodedOutputStream.class) {
            return CodedOutputStream.newInstance(new byte[1 << 16]);
        }
        throw new AssertionError("no valid value for " + type + " " + name);
    }
}
