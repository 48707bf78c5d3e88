package dev.ein4j.tensor;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.lowering.ArrowLowering;
import dev.ein4j.lowering.EinsumLowering;
import dev.ein4j.ir.Shapes;
import dev.ein4j.pattern.AnonymousAxis;
import dev.ein4j.pattern.AxisName;
import dev.ein4j.pattern.AxisTerm;
import dev.ein4j.pattern.EllipsisAxis;
import dev.ein4j.pattern.Operand;
import dev.ein4j.pattern.Operation;
import dev.ein4j.pattern.PackedAxes;
import dev.ein4j.pattern.PatternParser;
import dev.ein4j.pattern.UnitAxis;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The einops operations that take several tensors or return several, and plan explanations.
 *
 * <pre>{@code
 * Tensor scores = Ein.einsum("b h i d, b h j d -> b h i j", q, k);   // einops notation
 * Tensor product = Ein.einsumNumpy("ij,jk->ik", a, b);                // numpy notation
 * Packed packed = Ein.pack("b * c", image, tokens);                    // [b, h·w + n, c]
 * List<Tensor> parts = Ein.unpack(packed.tensor(), packed.packedShapes(), "b * c");
 * }</pre>
 */
public final class Ein {

    private Ein() {
    }

    /**
     * einsum in einops notation: space-separated axis names per operand, {@code ", "} between
     * operands, {@code ->} and the output. Operands may use compositions {@code (h d)}, unit axes
     * {@code ()}, anonymous axes (summed) and ellipses; a name repeated in one operand takes a
     * diagonal; names missing from the output are summed. out[output axes] = Σ_{other axes} Π_k operand_k.
     *
     * @param pattern e.g. {@code "b h i d, b h j d -> b h i j"}
     * @param operands one tensor per operand of the pattern
     * @return the result
     */
    public static Tensor einsum(String pattern, Tensor... operands) {
        return Patterns.einsum(Operation.EINSUM, pattern, Axes.none(), operands);
    }

    /**
     * einsum in einops notation with axis lengths given by name, as einops' keyword arguments:
     * {@code einsum("(a b) c, c -> a b", Axes.of("a", 2), x, v)}.
     *
     * @param pattern the pattern
     * @param axes lengths of axes that the shapes do not determine
     * @param operands one tensor per operand of the pattern
     * @return the result
     */
    public static Tensor einsum(String pattern, Axes axes, Tensor... operands) {
        return Patterns.einsum(Operation.EINSUM, pattern, axes, operands);
    }

    /**
     * einsum in numpy notation: one letter per axis, {@code "ij,jk->ik"}, {@code "...ij,...jk"},
     * {@code "ii->i"}; without {@code ->} the output is the letters used once, sorted.
     *
     * @param subscripts the numpy subscripts
     * @param operands one tensor per operand
     * @return the result
     */
    public static Tensor einsumNumpy(String subscripts, Tensor... operands) {
        Arguments.notNull(subscripts, "subscripts");
        return Patterns.einsum(Operation.NUMPY_EINSUM, subscripts, Axes.none(), operands);
    }

    /**
     * Matrix product with batch broadcasting, numpy's matmul for rank ≥ 2:
     * {@code einsum("... i j, ... j k -> ... i k")}.
     *
     * @param a [..., i, j]
     * @param b [..., j, k]
     * @return [..., i, k]
     */
    public static Tensor matmul(Tensor a, Tensor b) {
        Arguments.notNull(a, "a");
        Arguments.notNull(b, "b");
        return einsum("... i j, ... j k -> ... i k", a, b);
    }

    /**
     * einops' pack: joins tensors along the axes at {@code *}. Each input has the pattern's named
     * axes (their lengths must agree across inputs) and any number of axes at {@code *}, which are
     * flattened into one; the results are concatenated along that axis.
     *
     * @param pattern names and exactly one {@code *}, e.g. {@code "b * c"}
     * @param tensors the inputs, at least one
     * @return the packed tensor and each input's shape at {@code *}
     */
    public static Packed pack(String pattern, Tensor... tensors) {
        Arguments.notNull(pattern, "pattern");
        Arguments.noNulls(tensors, "tensors");
        Operand operand = PatternParser.parse(Operation.PACK, pattern).input();
        int star = starPosition(operand);
        int before = star;
        int after = operand.terms().size() - star - 1;
        List<long[]> shapes = Arrays.stream(tensors).map(t -> Shapes.toLong(t.shape())).toList();
        if (tensors.length == 0) {
            throw new ShapeException(pattern, 0, shapes, Map.of(), "pack needs at least one tensor");
        }
        List<int[]> packedShapes = new ArrayList<>();
        List<Tensor> flattened = new ArrayList<>();
        int[] reference = null;
        for (int i = 0; i < tensors.length; i++) {
            int[] shape = tensors[i].shape();
            if (shape.length < before + after) {
                throw new ShapeException(pattern, operand.span().column(), shapes, Map.of(), "tensor " + i + " has "
                        + shape.length + " dimensions but the pattern names " + (before + after));
            }
            int[] outer = concat(Arrays.copyOfRange(shape, 0, before), Arrays.copyOfRange(shape, shape.length - after, shape.length));
            if (reference == null) {
                reference = outer;
            } else if (!Arrays.equals(reference, outer)) {
                throw new ShapeException(pattern, operand.span().column(), shapes, Map.of(), "tensor " + i
                        + " does not match tensor 0 on the named axes: " + Arrays.toString(outer) + " vs " + Arrays.toString(reference));
            }
            int[] packed = Arrays.copyOfRange(shape, before, shape.length - after);
            packedShapes.add(packed);
            int[] flat = new int[before + after + 1];
            System.arraycopy(shape, 0, flat, 0, before);
            flat[before] = Arrays.stream(packed).reduce(1, Math::multiplyExact);
            System.arraycopy(shape, shape.length - after, flat, before + 1, after);
            flattened.add(tensors[i].reshape(flat));
        }
        return new Packed(Tensor.concat(before, flattened.toArray(Tensor[]::new)), List.copyOf(packedShapes));
    }

    /**
     * einops' unpack: splits the axis at {@code *} into parts of the given shapes. One shape may
     * contain a single −1, inferred from the length of the packed axis.
     *
     * @param packed a tensor with the pattern's axes and one packed axis
     * @param packedShapes the shape of each part at {@code *}
     * @param pattern names and exactly one {@code *}
     * @return the parts
     */
    public static List<Tensor> unpack(Tensor packed, List<int[]> packedShapes, String pattern) {
        Arguments.notNull(packed, "packed");
        Arguments.noNulls(packedShapes, "packedShapes");
        Arguments.notNull(pattern, "pattern");
        Operand operand = PatternParser.parse(Operation.UNPACK, pattern).input();
        int star = starPosition(operand);
        List<long[]> shapes = List.of(Shapes.toLong(packed.shape()));
        if (packed.rank() != operand.terms().size()) {
            throw new ShapeException(pattern, operand.span().column(), shapes, Map.of(), "the pattern has "
                    + operand.terms().size() + " dimensions but the tensor has " + packed.rank());
        }
        int total = packed.length(star);
        int[] sizes = new int[packedShapes.size()];
        int unknown = -1;
        long known = 0;
        for (int i = 0; i < sizes.length; i++) {
            int[] shape = packedShapes.get(i);
            long product = 1;
            for (int length : shape) {
                if (length == -1) {
                    if (unknown >= 0) {
                        throw new ShapeException(pattern, 0, shapes, Map.of(), "packed shapes may contain one -1, found more");
                    }
                    unknown = i;
                } else if (length < 0) {
                    throw new ShapeException(pattern, 0, shapes, Map.of(), "packed shape " + Arrays.toString(shape) + " has a negative length");
                } else {
                    product *= length;
                }
            }
            if (unknown != i) {
                sizes[i] = (int) product;
                known += product;
            }
        }
        List<int[]> resolved = new ArrayList<>(packedShapes.stream().map(int[]::clone).toList());
        if (unknown >= 0) {
            int[] shape = resolved.get(unknown);
            long rest = total - known;
            long product = Arrays.stream(shape).filter(length -> length != -1).asLongStream().reduce(1, (a, b) -> a * b);
            if (rest < 0 || product == 0 && rest != 0 || product != 0 && rest % product != 0) {
                throw new ShapeException(pattern, 0, shapes, Map.of(), "cannot infer the -1 in " + Arrays.toString(shape)
                        + ": " + rest + " elements remain on the packed axis");
            }
            int inferred = product == 0 ? 0 : (int) (rest / product);
            for (int k = 0; k < shape.length; k++) {
                if (shape[k] == -1) {
                    shape[k] = inferred;
                }
            }
            sizes[unknown] = (int) (product == 0 ? 0 : rest);
            known += sizes[unknown];
        }
        if (known != total) {
            throw new ShapeException(pattern, operand.terms().get(star).span().column(), shapes, Map.of(),
                    "the packed shapes hold " + known + " elements along '*' but the tensor has " + total);
        }
        List<Tensor> parts = new ArrayList<>();
        int offset = 0;
        int[] shape = packed.shape();
        for (int i = 0; i < sizes.length; i++) {
            Tensor slice = packed.slice(star, offset, offset + sizes[i]);
            offset += sizes[i];
            int[] target = concat(concat(Arrays.copyOfRange(shape, 0, star), resolved.get(i)),
                    Arrays.copyOfRange(shape, star + 1, shape.length));
            parts.add(slice.reshape(target));
        }
        return parts;
    }

    /**
     * einops' parse_shape: {@code parseShape(x, "b _ h w")} gives {b=.., h=.., w=..}.
     *
     * @param tensor the tensor
     * @param pattern names, {@code _} for skipped axes, at most one {@code ...}
     * @return lengths by name, in pattern order
     */
    public static Map<String, Integer> parseShape(Tensor tensor, String pattern) {
        Arguments.notNull(tensor, "tensor");
        Arguments.notNull(pattern, "pattern");
        Operand operand = PatternParser.parse(Operation.PARSE_SHAPE, pattern).input();
        int[] shape = tensor.shape();
        List<long[]> shapes = List.of(Shapes.toLong(shape));
        int fixed = (int) operand.terms().stream().filter(t -> !(t instanceof EllipsisAxis)).count();
        boolean ellipsis = operand.hasEllipsis();
        if (ellipsis ? shape.length < fixed : shape.length != fixed) {
            throw new ShapeException(pattern, operand.span().column(), shapes, Map.of(),
                    "the pattern has " + fixed + " dimensions" + (ellipsis ? " besides '...'" : "")
                    + " but the tensor has " + shape.length);
        }
        Map<String, Integer> lengths = new LinkedHashMap<>();
        int dimension = 0;
        for (AxisTerm term : operand.terms()) {
            if (term instanceof EllipsisAxis) {
                dimension += shape.length - fixed;
                continue;
            }
            long expected = term instanceof UnitAxis ? 1 : term instanceof AnonymousAxis anonymous ? anonymous.length() : -1;
            if (expected >= 0 && shape[dimension] != expected) {
                throw new ShapeException(pattern, term.span().column(), shapes, Map.of(), "dimension " + dimension
                        + " has length " + shape[dimension] + " but the pattern says " + expected);
            }
            if (term instanceof AxisName name) {
                lengths.put(name.name(), shape[dimension]);
            }
            dimension++;
        }
        return lengths;
    }

    // ------------------------------------------------------------------ explain

    /**
     * @param pattern a rearrange pattern
     * @param axes given lengths
     * @param shape the input shape
     * @return the IR steps a rearrange would run, with their shapes
     */
    public static String explainRearrange(String pattern, Axes axes, int... shape) {
        checkExplain(pattern, axes, shape);
        return ArrowLowering.plan(Operation.REARRANGE, pattern, axes.asMap(), shape).explain();
    }

    /**
     * @param pattern a reduce pattern
     * @param reduction the reduction
     * @param axes given lengths
     * @param shape the input shape
     * @return the IR steps a reduce would run
     */
    public static String explainReduce(String pattern, Reduction reduction, Axes axes, int... shape) {
        Arguments.notNull(reduction, "reduction");
        checkExplain(pattern, axes, shape);
        return ArrowLowering.plan(Operation.REDUCE, pattern, axes.asMap(), shape).explain()
                .replaceFirst("reduce axes", reduction.label() + " over axes");
    }

    /**
     * @param pattern a repeat pattern
     * @param axes given lengths
     * @param shape the input shape
     * @return the IR steps a repeat would run
     */
    public static String explainRepeat(String pattern, Axes axes, int... shape) {
        checkExplain(pattern, axes, shape);
        return ArrowLowering.plan(Operation.REPEAT, pattern, axes.asMap(), shape).explain();
    }

    /**
     * @param pattern an einsum pattern in einops notation
     * @param shapes the operand shapes
     * @return the plan: per-operand steps, the contraction order with each intermediate's size, the output steps
     */
    public static String explainEinsum(String pattern, int[]... shapes) {
        Arguments.notNull(pattern, "pattern");
        Arguments.noNulls(shapes, "shapes");
        return EinsumLowering.plan(Operation.EINSUM, pattern, List.of(shapes)).explain();
    }

    /**
     * @param subscripts an einsum in numpy notation, e.g. {@code "ij,jk->ik"}
     * @param shapes the operand shapes
     * @return the plan, as {@link #explainEinsum} prints it
     */
    public static String explainEinsumNumpy(String subscripts, int[]... shapes) {
        Arguments.notNull(subscripts, "subscripts");
        Arguments.noNulls(shapes, "shapes");
        return EinsumLowering.plan(Operation.NUMPY_EINSUM, subscripts, List.of(shapes)).explain();
    }

    // ------------------------------------------------------------------ helpers

    private static void checkExplain(String pattern, Axes axes, int[] shape) {
        Arguments.notNull(pattern, "pattern");
        Arguments.notNull(axes, "axes");
        Arguments.notNull(shape, "shape");
    }

    private static int starPosition(Operand operand) {
        for (int k = 0; k < operand.terms().size(); k++) {
            if (operand.terms().get(k) instanceof PackedAxes) {
                return k;
            }
        }
        throw new EinopsException("pattern has no '*'");
    }

    private static int[] concat(int[] a, int[] b) {
        int[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

}
