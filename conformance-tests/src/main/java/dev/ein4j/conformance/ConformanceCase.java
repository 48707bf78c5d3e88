package dev.ein4j.conformance;

import java.util.List;
import java.util.Map;

/**
 * One CASE of a fixture file (see {@code shared/conformance-format.md}).
 *
 * @param file the file it came from, for reports
 * @param id the case id
 * @param op rearrange, reduce, repeat, einsum, pack, unpack or function
 * @param numpySyntax whether an einsum pattern uses numpy notation
 * @param pattern the pattern (null for function cases)
 * @param function the function's name (function cases only)
 * @param params the function's keyword arguments (function cases only)
 * @param axes axis lengths by name
 * @param reduction the reduction of a reduce case, or null
 * @param inputs the operands
 * @param packedShapes the shapes argument of unpack, or null
 * @param expectedOutputs expected outputs, or null for an error case
 * @param expectedPackedShapes the shapes pack returns, or null
 * @param expectedError syntax, shape or any; null when outputs are expected
 * @param upstream the upstream gradient per output, or null
 * @param expectedGradients the gradient per input (an entry is null for an input that gets none), or null
 * @param rtol relative tolerance for outputs
 * @param atol absolute tolerance for outputs
 * @param gradRtol relative tolerance for gradients
 * @param gradAtol absolute tolerance for gradients
 */
record ConformanceCase(String file, String id, String op, boolean numpySyntax, String pattern, String function,
                       Params params, Map<String, Integer> axes,
                       String reduction, List<TensorData> inputs, List<int[]> packedShapes,
                       List<TensorData> expectedOutputs, List<int[]> expectedPackedShapes, String expectedError,
                       List<TensorData> upstream, List<TensorData> expectedGradients,
                       double rtol, double atol, double gradRtol, double gradAtol) {

    /** @return {@code file:id}, as reports name a case */
    String name() {
        return file + ":" + id;
    }
}
