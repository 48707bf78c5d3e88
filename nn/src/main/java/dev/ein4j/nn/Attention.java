package dev.ein4j.nn;

import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;

/**
 * Scaled dot-product attention as two einsums around a masked softmax:
 * scores = {@code einsum("... l e, ... s e -> ... l s", q, k)}·scale, weights = softmax over s,
 * output = {@code einsum("... l s, ... s v -> ... l v", weights, v)}. With grouped query heads
 * (PyTorch's {@code enable_gqa}) the query heads split as {@code (h g)} against the key and value
 * heads h, {@code "... (h g) l e, ... h s e -> ... (h g) l s"}, so k and v are read as they are,
 * never repeated.
 */
final class Attention {

    private static final String OPERATION = "scaled_dot_product_attention";

    private Attention() {
    }

    static Tensor scaledDotProduct(Tensor q, Tensor k, Tensor v, AttentionOptions options) {
        Checks.notNull(q, "q");
        Checks.notNull(k, "k");
        Checks.notNull(v, "v");
        Checks.notNull(options, "options");
        boolean grouped = options.enableGqa();
        int trailing = grouped ? 3 : 2; // the axes that do not broadcast: [heads,] length, features
        check(q, k, v, options, trailing);
        int[] batch = broadcastBatch(q, k, v, trailing);
        q = q.expand(withTrailing(batch, q, trailing));
        k = k.expand(withTrailing(batch, k, trailing));
        v = v.expand(withTrailing(batch, v, trailing));
        double scale = Double.isNaN(options.scale()) ? 1.0 / Math.sqrt(q.length(-1)) : options.scale();
        Tensor scores = grouped
                ? Ein.einsum("... (h g) l e, ... h s e -> ... (h g) l s", groups(q, k), q, k)
                : Ein.einsum("... l e, ... s e -> ... l s", q, k);
        scores = scores.mul(scale);
        Tensor keep = keepMask(options, q.length(-2), k.length(-2));
        if (options.mask() != null && options.mask().dtype().isFloating()) {
            scores = scores.add(options.mask());
        }
        Tensor weights = maskedSoftmax(scores, keep);
        if (options.dropout() > 0) {
            weights = Dropouts.dropout(weights, options.dropout(), true, options.generator());
        }
        return grouped
                ? Ein.einsum("... (h g) l s, ... h s v -> ... (h g) l v", groups(q, v), weights, v)
                : Ein.einsum("... l s, ... s v -> ... l v", weights, v);
    }

    /** g = Hq / Hkv, the query heads per key (or value) head. */
    private static Axes groups(Tensor q, Tensor kv) {
        return Axes.of("g", q.length(-3) / kv.length(-3));
    }

    /** The bool mask of kept scores (the given bool mask, or the causal triangle), or null for all. */
    private static Tensor keepMask(AttentionOptions options, int queries, int keys) {
        if (options.causal()) {
            return Tensor.arange(queries).reshape(queries, 1).ge(Tensor.arange(keys).reshape(1, keys));
        }
        Tensor mask = options.mask();
        return mask != null && mask.dtype() == DType.BOOL ? mask : null;
    }

    /**
     * softmax over the last axis of the kept scores, with a row whose scores are all −∞ (every key
     * masked) giving zero weights and zero gradients instead of 0/0.
     */
    static Tensor maskedSoftmax(Tensor scores, Tensor keep) {
        Tensor negativeInfinity = Tensor.scalar(Double.NEGATIVE_INFINITY, scores.dtype());
        Tensor kept = keep == null ? scores : Tensor.where(keep, scores, negativeInfinity);
        Tensor maximum = kept.max(new int[] {-1}, true).detach();
        Tensor shift = Tensor.where(maximum.eq(Double.NEGATIVE_INFINITY), Tensor.scalar(0.0, scores.dtype()), maximum);
        Tensor exponentials = kept.sub(shift).exp();
        Tensor total = exponentials.sum(new int[] {-1}, true);
        Tensor safeTotal = Tensor.where(total.eq(0.0), Tensor.scalar(1.0, scores.dtype()), total);
        return exponentials.div(safeTotal);
    }

    private static void check(Tensor q, Tensor k, Tensor v, AttentionOptions options, int trailing) {
        for (Tensor t : new Tensor[] {q, k, v}) {
            if (t.rank() < trailing || !t.dtype().isFloating()) {
                throw Checks.shapeError(OPERATION, "q, k and v must be floating tensors [..., "
                        + (trailing == 3 ? "heads, " : "") + "length, features], got " + t.dtype().numpyName()
                        + Arrays.toString(t.shape()), q, k, v);
            }
        }
        if (q.length(-1) != k.length(-1)) {
            throw Checks.shapeError(OPERATION, "q and k must have the same feature length E, got " + q.length(-1)
                    + " and " + k.length(-1), q, k, v);
        }
        if (k.length(-2) != v.length(-2)) {
            throw Checks.shapeError(OPERATION, "k and v must have the same length S, got " + k.length(-2) + " and "
                    + v.length(-2), q, k, v);
        }
        if (trailing == 3) {
            checkHeads(q, k, v);
        }
        if (q.dtype() != k.dtype() || q.dtype() != v.dtype()) {
            throw new EinopsException(OPERATION + ": q, k and v must have one type, got " + q.dtype().numpyName() + ", "
                    + k.dtype().numpyName() + ", " + v.dtype().numpyName());
        }
        Tensor mask = options.mask();
        if (mask != null) {
            if (options.causal()) {
                throw new EinopsException(OPERATION + ": give either a mask or causal(true), not both");
            }
            int[] scores = withTrailing(broadcastBatch(q, k, v, trailing), q, trailing);
            scores[scores.length - 1] = k.length(-2);
            if (!Checks.broadcastsTo(mask.shape(), scores)) {
                throw Checks.shapeError(OPERATION, "the mask " + Arrays.toString(mask.shape())
                        + " does not broadcast to the scores " + Arrays.toString(scores), q, k, mask);
            }
            if (mask.dtype() != DType.BOOL && mask.dtype() != q.dtype()) {
                throw new EinopsException(OPERATION + ": the mask must be bool or " + q.dtype().numpyName() + ", got "
                        + mask.dtype().numpyName());
            }
        }
    }

    /** Grouped query heads: the key and value head counts (dimension −3) must divide the query's. */
    private static void checkHeads(Tensor q, Tensor k, Tensor v) {
        int heads = q.length(-3);
        for (Tensor kv : new Tensor[] {k, v}) {
            if (kv.length(-3) == 0 || heads % kv.length(-3) != 0) {
                throw Checks.shapeError(OPERATION, "with grouped query heads the key and value heads (" + k.length(-3)
                        + ", " + v.length(-3) + ") must divide the query heads (" + heads + "), dimension -3 of "
                        + Arrays.toString(q.shape()) + ", " + Arrays.toString(k.shape()) + " and "
                        + Arrays.toString(v.shape()), q, k, v);
            }
        }
    }

    /** The broadcast of the three batch shapes (all but the trailing dimensions). */
    private static int[] broadcastBatch(Tensor q, Tensor k, Tensor v, int trailing) {
        int[] batch = Arrays.copyOf(q.shape(), q.rank() - trailing);
        for (Tensor t : new Tensor[] {k, v}) {
            int[] other = Arrays.copyOf(t.shape(), t.rank() - trailing);
            int[] joined = Checks.broadcast(batch, other);
            if (joined == null) {
                throw Checks.shapeError(OPERATION, "the batch shapes " + Arrays.toString(batch) + " and "
                        + Arrays.toString(other) + " do not broadcast", q, k, v);
            }
            batch = joined;
        }
        return batch;
    }

    /** The batch shape followed by t's trailing dimensions. */
    private static int[] withTrailing(int[] batch, Tensor t, int trailing) {
        int[] shape = Arrays.copyOf(batch, batch.length + trailing);
        System.arraycopy(t.shape(), t.rank() - trailing, shape, batch.length, trailing);
        return shape;
    }
}
