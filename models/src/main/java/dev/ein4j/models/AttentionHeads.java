package dev.ein4j.models;

import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.nn.AttentionOptions;
import dev.ein4j.nn.Functional;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The attention core shared by the transformer families, separate from their projections so that a
 * key/value cache can sit between the two: heads split and merged by rearrange patterns, masks
 * built from token positions (not from a top-left triangle), and grouped-query attention in which
 * each key/value head serves its group of query heads (no copy).
 *
 * <pre>{@code
 * Tensor q = AttentionHeads.split(qProjection.forward(x), 8);            // "b t (h d) -> b h t d"
 * Tensor keep = AttentionHeads.causal(positions, positions, padding);   // [b, 1, t, s] bool
 * Tensor y = AttentionHeads.merge(AttentionHeads.attend(q, k, v, keep, 1 / Math.sqrt(64)));
 * }</pre>
 */
public final class AttentionHeads {

    private AttentionHeads() {
    }

    /**
     * @param x [b, t, heads·d]
     * @param heads the number of heads
     * @return [b, heads, t, d], {@code "b t (h d) -> b h t d"}
     */
    public static Tensor split(Tensor x, int heads) {
        Objects.requireNonNull(x, "x");
        return x.rearrange("b t (h d) -> b h t d", Axes.of("h", heads));
    }

    /**
     * @param x [b, heads, t, d]
     * @return [b, t, heads·d], {@code "b h t d -> b t (h d)"}
     */
    public static Tensor merge(Tensor x) {
        Objects.requireNonNull(x, "x");
        return x.rearrange("b h t d -> b t (h d)");
    }

    /**
     * softmax(q·kᵀ·scale over the kept keys)·v. With fewer key/value heads g than query heads h
     * (grouped-query or multi-query attention), query head i reads key/value head ⌊i / (h/g)⌋, as
     * transformers' {@code repeat_kv}, without copying k and v
     * ({@link AttentionOptions#enableGqa}).
     *
     * @param q [b, h, t, d]
     * @param k [b, g, s, d], g dividing h
     * @param v [b, g, s, e]
     * @param keep bool, broadcastable to [b, h, t, s]: true where a query may attend a key; null for all
     * @param scale the factor of q·k
     * @return [b, h, t, e]; a query with no kept key gets zeros
     */
    public static Tensor attend(Tensor q, Tensor k, Tensor v, Tensor keep, double scale) {
        Objects.requireNonNull(q, "q");
        Objects.requireNonNull(k, "k");
        Objects.requireNonNull(v, "v");
        return attend(q, k, v, keep, scale, 0.0);
    }

    /**
     * {@link #attend(Tensor, Tensor, Tensor, Tensor, double)} with dropout of the attention weights
     * (training), the mask drawn from {@link Generator#global()}.
     *
     * @param q [b, h, t, d]
     * @param k [b, g, s, d], g dividing h
     * @param v [b, g, s, e]
     * @param keep bool, broadcastable to [b, h, t, s], or null
     * @param scale the factor of q·k
     * @param dropout the probability of zeroing each weight, in [0, 1)
     * @return [b, h, t, e]
     */
    public static Tensor attend(Tensor q, Tensor k, Tensor v, Tensor keep, double scale, double dropout) {
        Objects.requireNonNull(q, "q");
        Objects.requireNonNull(k, "k");
        Objects.requireNonNull(v, "v");
        if (q.rank() != 4 || k.rank() != 4 || v.rank() != 4 || q.length(1) % k.length(1) != 0
                || v.length(1) != k.length(1)) {
            throw new ShapeException("attention", shapes(q, k, v), "q must be [b, h, t, d] and k, v [b, g, s, d] with g dividing h");
        }
        AttentionOptions options = AttentionOptions.defaults().scale(scale).enableGqa(k.length(1) != q.length(1));
        if (dropout > 0) {
            options = options.dropout(dropout, Generator.global());
        }
        return Functional.scaledDotProductAttention(q, k, v, keep == null ? options : options.mask(keep));
    }

    /**
     * The causal mask by positions: query i may attend key j when position(j) ≤ position(i), and
     * key j is not padding. With a cache, the queries' positions continue the keys'.
     *
     * @param queryPositions int32 [t] or [b, t]
     * @param keyPositions int32 [s] or [b, s]
     * @param keyKept bool [b, s], false at padding; null when nothing is padding
     * @return bool [b or 1, 1, t, s]
     */
    public static Tensor causal(Tensor queryPositions, Tensor keyPositions, Tensor keyKept) {
        Objects.requireNonNull(queryPositions, "queryPositions");
        Objects.requireNonNull(keyPositions, "keyPositions");
        Tensor queries = batched(queryPositions).rearrange("b t -> b 1 t 1");
        Tensor keys = batched(keyPositions).rearrange("b s -> b 1 1 s");
        Tensor keep = keys.le(queries);
        return keyKept == null ? keep : keep.logicalAnd(padding(keyKept));
    }

    /**
     * @param keyKept bool [b, s], false at padding
     * @return bool [b, 1, 1, s]: every query may attend every key that is not padding
     */
    public static Tensor padding(Tensor keyKept) {
        Objects.requireNonNull(keyKept, "keyKept");
        return keyKept.rearrange("b s -> b 1 1 s");
    }

    /**
     * @param length t
     * @return int32 [t]: 0, 1, …, t − 1, the positions of a sequence without a cache
     */
    public static Tensor positions(int length) {
        return Tensor.arange(DType.INT32, length);
    }

    private static Tensor batched(Tensor positions) {
        return positions.rank() == 1 ? positions.unsqueeze(0) : positions;
    }

    private static List<long[]> shapes(Tensor... tensors) {
        return Arrays.stream(tensors).map(t -> Arrays.stream(t.shape()).asLongStream().toArray()).toList();
    }
}
