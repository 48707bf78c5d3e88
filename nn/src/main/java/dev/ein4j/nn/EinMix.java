package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * einops' {@code EinMix}: a linear layer whose contraction is a pattern. The weight's axes are
 * named; the output is {@code einsum("<left>, <weight> -> <right>", x, weight)} plus an optional
 * bias over some output axes. Weights are U(−√(3/fan_in), √(3/fan_in)) and the bias
 * U(−1/√fan_in, 1/√fan_in), fan_in the product of the weight axes absent from the output, as in einops.
 *
 * <pre>{@code
 * // a per-token MLP: mixes channels, leaves batch and time alone
 * EinMix mix = new EinMix("b t c -> b t c_out", "c c_out", "c_out", Axes.of("c", 64, "c_out", 128));
 * // MLP-Mixer's token mixing: mixes positions within each channel
 * EinMix tokens = new EinMix("b t c -> b t2 c", "t t2", "t2", Axes.of("t", 196, "t2", 196));
 * }</pre>
 */
public class EinMix extends Module {

    private final String pattern;
    private final String contraction;
    private final String biasShape;
    private final String elementaryOutput;
    private final String output;

    /**
     * @param pattern {@code left -> right}, compositions allowed, no ellipsis
     * @param weightShape the weight's axis names, e.g. {@code "c c_out"}
     * @param axes the length of every weight axis
     */
    public EinMix(String pattern, String weightShape, Axes axes) {
        this(pattern, weightShape, "", axes, Generator.global());
    }

    /**
     * @param pattern {@code left -> right}
     * @param weightShape the weight's axis names
     * @param biasShape the bias's axis names, a subset of the output's ({@code ""} for no bias)
     * @param axes the length of every weight and bias axis
     */
    public EinMix(String pattern, String weightShape, String biasShape, Axes axes) {
        this(pattern, weightShape, biasShape, axes, Generator.global());
    }

    /**
     * @param pattern {@code left -> right}
     * @param weightShape the weight's axis names
     * @param biasShape the bias's axis names ({@code ""} for no bias)
     * @param axes the length of every weight and bias axis
     * @param generator the random stream of the initial weights
     */
    public EinMix(String pattern, String weightShape, String biasShape, Axes axes, Generator generator) {
        Checks.notNull(pattern, "pattern");
        Checks.notNull(weightShape, "weightShape");
        Checks.notNull(biasShape, "biasShape");
        Checks.notNull(axes, "axes");
        Checks.notNull(generator, "generator");
        String[] sides = pattern.split("->", -1);
        if (sides.length != 2 || pattern.contains("...")) {
            throw new EinopsException("EinMix needs a pattern 'left -> right' without ellipsis, got '" + pattern + "'");
        }
        this.pattern = pattern;
        this.output = sides[1].trim();
        List<String> outputNames = names(output);
        this.elementaryOutput = String.join(" ", outputNames);
        this.contraction = sides[0].trim() + ", " + weightShape.trim() + " -> " + elementaryOutput;
        this.biasShape = biasShape.trim();
        Map<String, Integer> lengths = axes.asMap();
        int[] weightLengths = lengths(names(weightShape), lengths, "weight");
        long fanIn = 1;
        List<String> weightNames = names(weightShape);
        for (int i = 0; i < weightNames.size(); i++) {
            if (!outputNames.contains(weightNames.get(i))) {
                fanIn *= weightLengths[i];
            }
        }
        double weightBound = Math.sqrt(3.0 / fanIn);
        registerParameter("weight", Init.uniform(generator, -weightBound, weightBound, weightLengths));
        if (!this.biasShape.isEmpty()) {
            List<String> biasNames = names(this.biasShape);
            if (!outputNames.containsAll(biasNames)) {
                throw new EinopsException("EinMix: bias axes " + biasNames + " must be output axes " + outputNames);
            }
            double biasBound = 1 / Math.sqrt(fanIn);
            registerParameter("bias", Init.uniform(generator, -biasBound, biasBound, lengths(biasNames, lengths, "bias")));
        }
    }

    /**
     * @param x the input, matching the pattern's left side
     * @return the mixed tensor, the pattern's right side
     */
    @Override
    public Tensor forward(Tensor x) {
        Checks.notNull(x, "x");
        Tensor y = Ein.einsum(contraction, x, parameter("weight"));
        if (hasParameter("bias")) {
            y = y.add(parameter("bias").rearrange(biasShape + " -> " + broadcastPattern()));
        }
        return output.equals(elementaryOutput) ? y : y.rearrange(elementaryOutput + " -> " + output);
    }

    /** The output's axes with those missing from the bias as 1s, e.g. {@code "1 1 c_out"}. */
    private String broadcastPattern() {
        Set<String> bias = new LinkedHashSet<>(names(biasShape));
        List<String> terms = new ArrayList<>();
        for (String name : names(output)) {
            terms.add(bias.contains(name) ? name : "1");
        }
        return String.join(" ", terms);
    }

    /** @return the weight */
    public Tensor weight() {
        return parameter("weight");
    }

    private static List<String> names(String side) {
        String flat = side.replace("(", " ").replace(")", " ").trim();
        return flat.isEmpty() ? List.of() : Arrays.asList(flat.split("\\s+"));
    }

    private static int[] lengths(List<String> names, Map<String, Integer> lengths, String what) {
        int[] result = new int[names.size()];
        for (int i = 0; i < result.length; i++) {
            Integer length = lengths.get(names.get(i));
            if (length == null) {
                throw new EinopsException("EinMix: the " + what + " axis '" + names.get(i) + "' needs a length in axes");
            }
            result[i] = length;
        }
        return result;
    }

    @Override
    protected String extraRepresentation() {
        return "'" + pattern + "', weight_shape='" + String.join(" ", names(contraction.split(",")[1].split("->")[0]))
                + "'" + (biasShape.isEmpty() ? "" : ", bias_shape='" + biasShape + "'");
    }
}
