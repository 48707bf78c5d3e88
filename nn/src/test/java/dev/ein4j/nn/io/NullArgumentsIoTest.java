package dev.ein4j.nn.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.tensor.Tensor;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every public method of the file formats, called with null for each reference parameter in turn,
 * throws a NullPointerException whose message is the parameter's name, before touching any file.
 */
class NullArgumentsIoTest {

    private static final List<Class<?>> API = List.of(SafeTensors.class, Npy.class, Npz.class, Idx.class);

    @Test
    void everyReferenceParameterIsCheckedAtTheCall() throws Exception {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Class<?> type : API) {
            for (Method method : type.getDeclaredMethods()) { // primitives (limits, flags) take their defaults
                if (!Modifier.isPublic(method.getModifiers()) || method.isSynthetic()) {
                    continue;
                }
                Parameter[] parameters = method.getParameters();
                for (int i = 0; i < parameters.length; i++) {
                    if (parameters[i].getType().isPrimitive()) {
                        continue;
                    }
                    checked++;
                    Object[] arguments = new Object[parameters.length];
                    for (int k = 0; k < parameters.length; k++) {
                        Class<?> kind = parameters[k].getType();
                        arguments[k] = k == i ? null : kind == int.class ? 1 : kind == boolean.class ? false : sample(kind);
                    }
                    try {
                        method.invoke(null, arguments);
                        problems.add(method + " with " + parameters[i].getName() + " = null returned normally");
                    } catch (InvocationTargetException e) {
                        Throwable cause = e.getCause();
                        if (!(cause instanceof NullPointerException) || !parameters[i].getName().equals(cause.getMessage())) {
                            problems.add(method + " with " + parameters[i].getName() + " = null threw " + cause);
                        }
                    }
                }
            }
        }
        assertThat(checked).as("reference parameters checked").isGreaterThanOrEqualTo(22);
        assertThat(problems).isEmpty();
    }

    private static Object sample(Class<?> type) {
        if (type == Path.class) {
            return Path.of("no-such-dir", "never-written.bin");
        }
        if (type == Map.class) {
            return Map.of();
        }
        if (type == Tensor.class) {
            return Tensor.of(new float[] {1, 2});
        }
        if (type == InputStream.class) {
            return new ByteArrayInputStream(new byte[0]);
        }
        if (type == OutputStream.class) {
            return OutputStream.nullOutputStream();
        }
        throw new IllegalStateException("no sample for " + type);
    }
}
