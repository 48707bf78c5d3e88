package dev.ein4j.conformance;

import dev.ein4j.autograd.Autograd;
import dev.ein4j.backend.Backends;
import dev.ein4j.error.EinopsException;
import dev.ein4j.error.PatternSyntaxException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Packed;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Runs one case on one backend and says why it failed, if it did. */
final class CaseRunner {

    private final boolean checkGradients;

    CaseRunner(boolean checkGradients) {
        this.checkGradients = checkGradients;
    }

    /**
     * @param testCase the case
     * @param backend the backend's name
     * @return empty if the case passed, else the reason
     */
    Optional<String> run(ConformanceCase testCase, String backend) {
        Backends.use(backend);
        try {
            return testCase.expectedError() != null ? runError(testCase) : runValues(testCase);
        } catch (EinopsException e) {
            return Optional.of("unexpected " + e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()));
        } catch (RuntimeException | StackOverflowError e) {
            return Optional.of("crashed with " + e);
        }
    }

    private Optional<String> runError(ConformanceCase testCase) {
        try {
            List<Tensor> outputs = call(testCase, inputs(testCase, false)).outputs();
            outputs.forEach(Tensor::realize);
            return Optional.of("expected a " + testCase.expectedError() + " error, got outputs of shapes "
                    + outputs.stream().map(t -> Arrays.toString(t.shape())).toList());
        } catch (PatternSyntaxException e) {
            return "shape".equals(testCase.expectedError())
                    ? Optional.of("expected a shape error, got a syntax error: " + firstLine(e.getMessage()))
                    : Optional.empty();
        } catch (ShapeException e) {
            return "syntax".equals(testCase.expectedError())
                    ? Optional.of("expected a syntax error, got a shape error: " + firstLine(e.getMessage()))
                    : Optional.empty();
        } catch (EinopsException e) {
            return "any".equals(testCase.expectedError()) ? Optional.empty()
                    : Optional.of("expected a " + testCase.expectedError() + " error, got " + e.getClass().getSimpleName()
                    + ": " + firstLine(e.getMessage()));
        }
    }

    private Optional<String> runValues(ConformanceCase testCase) {
        boolean withGradients = checkGradients && testCase.expectedGradients() != null;
        List<Tensor> inputs = inputs(testCase, withGradients);
        Result result = call(testCase, inputs);
        List<TensorData> expected = testCase.expectedOutputs();
        if (result.outputs().size() != expected.size()) {
            return Optional.of("expected " + expected.size() + " outputs, got " + result.outputs().size());
        }
        for (int i = 0; i < expected.size(); i++) {
            Optional<String> mismatch = compare("output " + i, expected.get(i), result.outputs().get(i),
                    testCase.rtol(), testCase.atol());
            if (mismatch.isPresent()) {
                return mismatch;
            }
        }
        if (testCase.expectedPackedShapes() != null) {
            List<int[]> actual = result.packedShapes();
            List<int[]> wanted = testCase.expectedPackedShapes();
            if (actual.size() != wanted.size() || !sameShapes(actual, wanted)) {
                return Optional.of("packed shapes " + describe(actual) + ", expected " + describe(wanted));
            }
        }
        return withGradients ? checkGradients(testCase, inputs, result.outputs()) : Optional.empty();
    }

    private Optional<String> checkGradients(ConformanceCase testCase, List<Tensor> inputs, List<Tensor> outputs) {
        List<Tensor> seeds = testCase.upstream().stream().map(CaseRunner::tensor).toList();
        List<Tensor> gradients = Autograd.grad(outputs, inputs, seeds);
        for (int i = 0; i < inputs.size(); i++) {
            if (testCase.expectedGradients().get(i) == null) {
                continue; // an int32 or bool input, or one that gets no gradient (running statistics)
            }
            Optional<String> mismatch = compare("gradient of input " + i, testCase.expectedGradients().get(i),
                    gradients.get(i), testCase.gradRtol(), testCase.gradAtol());
            if (mismatch.isPresent()) {
                return mismatch;
            }
        }
        return Optional.empty();
    }

    private record Result(List<Tensor> outputs, List<int[]> packedShapes) {
    }

    private static Result call(ConformanceCase testCase, List<Tensor> inputs) {
        Axes axes = Axes.from(testCase.axes());
        String pattern = testCase.pattern();
        Tensor[] operands = inputs.toArray(Tensor[]::new);
        return switch (testCase.op()) {
            case "rearrange" -> single(first(inputs, testCase).rearrange(pattern, axes));
            case "reduce" -> single(first(inputs, testCase).reduce(pattern, Reduction.of(testCase.reduction()), axes));
            case "repeat" -> single(first(inputs, testCase).repeat(pattern, axes));
            case "einsum" -> single(testCase.numpySyntax() ? Ein.einsumNumpy(pattern, operands) : Ein.einsum(pattern, operands));
            case "pack" -> {
                Packed packed = Ein.pack(pattern, operands);
                yield new Result(List.of(packed.tensor()), packed.packedShapes());
            }
            case "unpack" -> new Result(Ein.unpack(first(inputs, testCase),
                    testCase.packedShapes() == null ? List.of() : testCase.packedShapes(), pattern), null);
            case "function" -> new Result(FunctionCases.call(testCase.function(), testCase.params(), inputs), null);
            default -> throw new IllegalArgumentException("unknown op '" + testCase.op() + "'");
        };
    }

    private static Tensor first(List<Tensor> inputs, ConformanceCase testCase) {
        if (inputs.size() != 1) {
            throw new IllegalArgumentException(testCase.op() + " takes one input, the case has " + inputs.size());
        }
        return inputs.get(0);
    }

    private static Result single(Tensor output) {
        return new Result(List.of(output), null);
    }

    private static List<Tensor> inputs(ConformanceCase testCase, boolean requireGrad) {
        List<Tensor> tensors = new ArrayList<>();
        for (TensorData data : testCase.inputs()) {
            Tensor tensor = tensor(data);
            tensors.add(requireGrad && data.dtype().isFloating() ? tensor.requireGrad() : tensor);
        }
        return tensors;
    }

    private static Tensor tensor(TensorData data) {
        return Tensor.of(data.data(), data.dtype(), data.shape());
    }

    /** |actual − expected| ≤ atol + rtol·|expected|; NaN only matches NaN, infinities their own sign. */
    static Optional<String> compare(String what, TensorData expected, Tensor actual, double rtol, double atol) {
        if (!Arrays.equals(expected.shape(), actual.shape())) {
            return Optional.of(what + ": shape " + Arrays.toString(actual.shape()) + ", expected "
                    + Arrays.toString(expected.shape()));
        }
        if (expected.dtype() != actual.dtype()) {
            return Optional.of(what + ": dtype " + actual.dtype().numpyName() + ", expected " + expected.dtype().numpyName());
        }
        double[] values = actual.toDoubleArray();
        double[] wanted = expected.data();
        boolean exact = !expected.dtype().isFloating(); // int32 and bool must match exactly
        for (int i = 0; i < wanted.length; i++) {
            if (exact ? values[i] != wanted[i] : !close(values[i], wanted[i], rtol, atol)) {
                return Optional.of(what + ": element " + i + " is " + values[i] + ", expected " + wanted[i]
                        + " (rtol " + rtol + ", atol " + atol + ")");
            }
        }
        return Optional.empty();
    }

    private static boolean close(double actual, double expected, double rtol, double atol) {
        if (Double.isNaN(expected) || Double.isNaN(actual)) {
            return Double.isNaN(expected) && Double.isNaN(actual);
        }
        if (Double.isInfinite(expected) || Double.isInfinite(actual)) {
            return actual == expected;
        }
        return Math.abs(actual - expected) <= atol + rtol * Math.abs(expected);
    }

    private static boolean sameShapes(List<int[]> a, List<int[]> b) {
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static String describe(List<int[]> shapes) {
        return shapes == null ? "none" : shapes.stream().map(Arrays::toString).toList().toString();
    }

    private static String firstLine(String message) {
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
