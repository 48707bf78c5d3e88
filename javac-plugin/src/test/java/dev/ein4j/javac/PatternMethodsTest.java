package dev.ein4j.javac;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.javac.PatternMethod.EinMixRule;
import dev.ein4j.javac.PatternMethod.PatternRule;
import dev.ein4j.nn.EinMix;
import dev.ein4j.nn.Rearrange;
import dev.ein4j.nn.Reduce;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Tensor;
import java.lang.reflect.Executable;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The plugin's table of pattern methods against the public API, read by reflection (the build
 * compiles with {@code -parameters}): every public method or constructor of the pattern classes
 * with a String parameter that is a pattern or an axis-name list is listed, at that parameter, and
 * nothing is listed that the API lacks.
 */
class PatternMethodsTest {

    private static final List<Class<?>> PATTERN_CLASSES = List.of(Tensor.class, Ein.class, Rearrange.class, Reduce.class,
            EinMix.class);
    private static final Set<String> PATTERN_PARAMETERS = Set.of("pattern", "subscripts", "weightShape", "biasShape");

    @Test
    void theTableListsExactlyThePatternParametersOfThePublicApi() {
        Set<String> inApi = new TreeSet<>();
        for (Class<?> type : PATTERN_CLASSES) {
            List<Executable> executables = new ArrayList<>(Arrays.asList(type.getDeclaredMethods()));
            executables.addAll(Arrays.asList(type.getDeclaredConstructors()));
            for (Executable executable : executables) {
                if (!Modifier.isPublic(executable.getModifiers())) {
                    continue;
                }
                Parameter[] parameters = executable.getParameters();
                assertThat(parameters).allSatisfy(p -> assertThat(p.isNamePresent()).as("compiled with -parameters").isTrue());
                for (int i = 0; i < parameters.length; i++) {
                    if (parameters[i].getType() == String.class && PATTERN_PARAMETERS.contains(parameters[i].getName())) {
                        inApi.add(signature(type.getName(), executable, i));
                    }
                }
            }
        }
        Set<String> inTable = new TreeSet<>();
        for (PatternMethod method : PatternMethods.ALL) {
            if (method.rule() instanceof PatternRule rule) {
                inTable.add(signature(method, rule.pattern()));
            } else {
                EinMixRule rule = (EinMixRule) method.rule();
                inTable.add(signature(method, rule.pattern()));
                inTable.add(signature(method, rule.weightShape()));
                if (rule.biasShape() >= 0) {
                    inTable.add(signature(method, rule.biasShape()));
                }
            }
        }
        assertThat(inApi).hasSizeGreaterThan(30);
        assertThat(inTable).isEqualTo(inApi);
    }

    @Test
    void lookupsFindEachListedMethodAndNothingElse() {
        for (PatternMethod method : PatternMethods.ALL) {
            assertThat(PatternMethods.ruleFor(method.owner(), method.name(), method.parameters())).contains(method.rule());
        }
        assertThat(PatternMethods.ruleFor(PatternMethods.TENSOR, "rearrange", List.of("java.lang.Object"))).isEmpty();
        assertThat(PatternMethods.ruleFor("example.Other", "rearrange", List.of("java.lang.String"))).isEmpty();
        assertThat(PatternMethods.ALL).allSatisfy(method -> assertThat(PatternMethods.isPatternMethodName(method.name())).isTrue());
        assertThat(PatternMethods.isPatternMethodName("add")).isFalse();
    }

    private static String signature(String owner, Executable executable, int parameter) {
        String name = executable instanceof java.lang.reflect.Constructor<?> ? "<init>" : executable.getName();
        List<String> types = Arrays.stream(executable.getParameterTypes()).map(Class::getCanonicalName).toList();
        return owner + "." + name + types + " #" + parameter;
    }

    private static String signature(PatternMethod method, int parameter) {
        return method.owner() + "." + method.name() + method.parameters() + " #" + parameter;
    }
}
