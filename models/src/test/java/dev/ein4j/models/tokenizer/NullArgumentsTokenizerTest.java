package dev.ein4j.models.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every public method of the tokenizer API, called with null for each reference parameter in turn,
 * throws a NullPointerException whose message is the parameter's name.
 */
class NullArgumentsTokenizerTest {

    private static final List<Class<?>> API = List.of(Tokenizer.class, StreamingDecoder.class);

    @Test
    void everyReferenceParameterIsCheckedAtTheCall() throws Exception {
        Tokenizer tokenizer = Tokenizer.load(Fixtures.root().resolve("gpt2-byte-level"));
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Class<?> type : API) {
            Object receiver = type == Tokenizer.class ? tokenizer : tokenizer.streamingDecoder(false);
            for (Method method : type.getDeclaredMethods()) {
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
                        arguments[k] = k == i ? null : sample(parameters[k].getType());
                    }
                    try {
                        method.invoke(Modifier.isStatic(method.getModifiers()) ? null : receiver, arguments);
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
        assertThat(checked).as("reference parameters checked").isGreaterThanOrEqualTo(8);
        assertThat(problems).isEmpty();
    }

    private static Object sample(Class<?> type) {
        if (type == Path.class) {
            return Path.of("no-such-dir", "tokenizer.json");
        }
        if (type == String.class) {
            return "{}";
        }
        if (type == int[].class) {
            return new int[] {1};
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == int.class) {
            return 1;
        }
        throw new IllegalStateException("no sample for " + type);
    }
}
