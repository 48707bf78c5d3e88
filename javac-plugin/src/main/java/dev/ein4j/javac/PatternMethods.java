package dev.ein4j.javac;

import dev.ein4j.javac.PatternMethod.EinMixRule;
import dev.ein4j.javac.PatternMethod.PatternRule;
import dev.ein4j.javac.PatternMethod.Rule;
import dev.ein4j.pattern.Operation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every ein4j method and constructor that takes a pattern (the plugin's test compares this table
 * with the public API by reflection, so a new pattern method cannot be missed).
 */
final class PatternMethods {

    static final String TENSOR = "dev.ein4j.tensor.Tensor";
    static final String EIN = "dev.ein4j.tensor.Ein";
    static final String REARRANGE_LAYER = "dev.ein4j.nn.Rearrange";
    static final String REDUCE_LAYER = "dev.ein4j.nn.Reduce";
    static final String EINMIX_LAYER = "dev.ein4j.nn.EinMix";

    private static final String STRING = "java.lang.String";
    private static final String AXES = "dev.ein4j.tensor.Axes";
    private static final String REDUCTION = "dev.ein4j.tensor.Reduction";
    private static final String TENSOR_ARRAY = TENSOR + "[]";
    private static final String GENERATOR = "dev.ein4j.tensor.Generator";
    private static final String CONSTRUCTOR = "<init>";

    static final List<PatternMethod> ALL = List.of(
            pattern(TENSOR, "rearrange", 0, Operation.REARRANGE, STRING, AXES),
            pattern(TENSOR, "rearrange", 0, Operation.REARRANGE, STRING),
            pattern(TENSOR, "reduce", 0, Operation.REDUCE, STRING, REDUCTION, AXES),
            pattern(TENSOR, "reduce", 0, Operation.REDUCE, STRING, REDUCTION),
            pattern(TENSOR, "reduce", 0, Operation.REDUCE, STRING, STRING),
            pattern(TENSOR, "reduce", 0, Operation.REDUCE, STRING, STRING, AXES),
            pattern(TENSOR, "repeat", 0, Operation.REPEAT, STRING, AXES),
            pattern(TENSOR, "repeat", 0, Operation.REPEAT, STRING),
            pattern(TENSOR, "parseShape", 0, Operation.PARSE_SHAPE, STRING),
            pattern(TENSOR, "checkShape", 0, Operation.CHECK_SHAPE, STRING, AXES),
            pattern(TENSOR, "checkShape", 0, Operation.CHECK_SHAPE, STRING),
            pattern(EIN, "einsum", 0, Operation.EINSUM, STRING, TENSOR_ARRAY),
            pattern(EIN, "einsum", 0, Operation.EINSUM, STRING, AXES, TENSOR_ARRAY),
            pattern(EIN, "einsumNumpy", 0, Operation.NUMPY_EINSUM, STRING, TENSOR_ARRAY),
            pattern(EIN, "pack", 0, Operation.PACK, STRING, TENSOR_ARRAY),
            pattern(EIN, "unpack", 2, Operation.UNPACK, TENSOR, "java.util.List", STRING),
            pattern(EIN, "parseShape", 1, Operation.PARSE_SHAPE, TENSOR, STRING),
            pattern(EIN, "explainRearrange", 0, Operation.REARRANGE, STRING, AXES, "int[]"),
            pattern(EIN, "explainReduce", 0, Operation.REDUCE, STRING, REDUCTION, AXES, "int[]"),
            pattern(EIN, "explainRepeat", 0, Operation.REPEAT, STRING, AXES, "int[]"),
            pattern(EIN, "explainEinsum", 0, Operation.EINSUM, STRING, "int[][]"),
            pattern(EIN, "explainEinsumNumpy", 0, Operation.NUMPY_EINSUM, STRING, "int[][]"),
            pattern(REARRANGE_LAYER, CONSTRUCTOR, 0, Operation.REARRANGE, STRING),
            pattern(REARRANGE_LAYER, CONSTRUCTOR, 0, Operation.REARRANGE, STRING, AXES),
            pattern(REDUCE_LAYER, CONSTRUCTOR, 0, Operation.REDUCE, STRING, REDUCTION),
            pattern(REDUCE_LAYER, CONSTRUCTOR, 0, Operation.REDUCE, STRING, REDUCTION, AXES),
            einMix(new EinMixRule(0, 1, -1), STRING, STRING, AXES),
            einMix(new EinMixRule(0, 1, 2), STRING, STRING, STRING, AXES),
            einMix(new EinMixRule(0, 1, 2), STRING, STRING, STRING, AXES, GENERATOR));

    private static final Map<Key, Rule> BY_SIGNATURE = new HashMap<>();
    private static final Set<String> NAMES = new HashSet<>();

    static {
        for (PatternMethod method : ALL) {
            BY_SIGNATURE.put(new Key(method.owner(), method.name(), method.parameters()), method.rule());
            NAMES.add(method.name());
        }
    }

    private record Key(String owner, String name, List<String> parameters) {
    }

    private PatternMethods() {
    }

    /**
     * A cheap first test for every call javac has: only these names can be pattern methods.
     *
     * @param name a method's name, {@code <init>} for a constructor
     * @return whether some pattern method has that name
     */
    static boolean isPatternMethodName(String name) {
        return NAMES.contains(name);
    }

    /**
     * @param owner the qualified name of the declaring class
     * @param name the method's name, {@code <init>} for a constructor
     * @param parameters the erased parameter types
     * @return what to check in a call, if the method takes a pattern
     */
    static Optional<Rule> ruleFor(String owner, String name, List<String> parameters) {
        return Optional.ofNullable(BY_SIGNATURE.get(new Key(owner, name, parameters)));
    }

    private static PatternMethod pattern(String owner, String name, int pattern, Operation operation, String... parameters) {
        return new PatternMethod(owner, name, List.of(parameters), new PatternRule(pattern, operation));
    }

    private static PatternMethod einMix(EinMixRule rule, String... parameters) {
        return new PatternMethod(EINMIX_LAYER, CONSTRUCTOR, List.of(parameters), rule);
    }
}
