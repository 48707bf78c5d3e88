package dev.ein4j.models.generation;

import dev.ein4j.error.EinopsException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.models.AttentionHeads;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The keys and values a causal decoder has computed, kept between steps so that a new token's
 * attention reads them instead of recomputing them. Per layer, K and V are preallocated
 * {@code [b, kvHeads, maxLength, headDim]} buffers (kvHeads below the query heads for grouped-query
 * and multi-query attention); a step writes its keys and values at their positions in place
 * ({@code cache.assign(cache.scatter(2, positions, keys))}, which copies only the new elements), and
 * attention then reads all maxLength positions with a mask that hides those not written yet
 * ({@link #mask}). So every decode step builds a graph of one structure, the position being a
 * number in it, and replays the schedule of the first.
 *
 * <pre>{@code
 * try (KeyValueCache cache = KeyValueCache.allocate(layers, 1, kvHeads, headDim, prompt + newTokens)) {
 *     cache.write(0, KeyValueCache.positions(0, prompt), keys, values);   // keys [1, kvHeads, prompt, headDim]
 *     Tensor keep = cache.mask(KeyValueCache.positions(0, prompt));       // [1, 1, prompt, maxLength]
 *     Tensor attended = AttentionHeads.attend(q, cache.keys(0), cache.values(0), keep, scale);
 * }                                                                        // K and V released here
 * }</pre>
 *
 * <p>The buffers belong to the cache, not to any {@link Tensor#scope()} open when it is made; they
 * are released by {@link #close()}. Not thread-safe.
 */
public final class KeyValueCache implements AutoCloseable {

    private final Tensor[] keys;
    private final Tensor[] values;
    private final int batch;
    private final int keyValueHeads;
    private final int headDim;
    private final int maxLength;
    private boolean closed;

    private KeyValueCache(Tensor[] keys, Tensor[] values, int batch, int keyValueHeads, int headDim, int maxLength) {
        this.keys = keys;
        this.values = values;
        this.batch = batch;
        this.keyValueHeads = keyValueHeads;
        this.headDim = headDim;
        this.maxLength = maxLength;
    }

    /**
     * Allocates zeroed float32 K and V for every layer, outside any open scope.
     *
     * @param layers the decoder layers
     * @param batch b, the sequences generated together
     * @param keyValueHeads the key/value heads of each layer
     * @param headDim the width of a head
     * @param maxLength the most positions a sequence reaches (prompt plus new tokens)
     * @return the cache, to close when the generation ends
     * @throws EinopsException if a size is not positive
     */
    public static KeyValueCache allocate(int layers, int batch, int keyValueHeads, int headDim, int maxLength) {
        if (layers < 0 || batch < 1 || keyValueHeads < 1 || headDim < 1 || maxLength < 1) {
            throw new EinopsException("a key/value cache needs positive sizes, got " + layers + " layers, batch " + batch + ", "
                    + keyValueHeads + " key/value heads of width " + headDim + ", " + maxLength + " positions");
        }
        Tensor[] keys = new Tensor[layers];
        Tensor[] values = new Tensor[layers];
        TensorScope.unscoped(() -> {
            for (int layer = 0; layer < layers; layer++) {
                keys[layer] = zeros(batch, keyValueHeads, maxLength, headDim);
                values[layer] = zeros(batch, keyValueHeads, maxLength, headDim);
            }
            return null;
        });
        return new KeyValueCache(keys, values, batch, keyValueHeads, headDim, maxLength);
    }

    private static Tensor zeros(int... shape) {
        return Tensor.zeros(shape).contiguous().realize(); // a compact leaf of its own, which assign writes in place
    }

    /**
     * The positions {@code start, start + 1, ..., start + length − 1} as a graph whose structure does
     * not depend on start (an iota plus a constant, which the runtime passes as a kernel parameter),
     * so that steps at successive positions replay one schedule.
     *
     * @param start the first position
     * @param length how many
     * @return int32 [length]
     */
    public static Tensor positions(int start, int length) {
        return AttentionHeads.positions(length).add(Tensor.full(start, DType.INT32, 1));
    }

    /** @return the number of layers */
    public int layers() {
        return keys.length;
    }

    /** @return b, the sequences the cache holds */
    public int batch() {
        return batch;
    }

    /** @return the positions each sequence can hold */
    public int maxLength() {
        return maxLength;
    }

    /**
     * @param layer a layer index
     * @return its keys, float32 [b, kvHeads, maxLength, headDim] (positions not written yet are stale or zero)
     */
    public Tensor keys(int layer) {
        return keys[checkLayer(layer)];
    }

    /**
     * @param layer a layer index
     * @return its values, float32 [b, kvHeads, maxLength, headDim]
     */
    public Tensor values(int layer) {
        return values[checkLayer(layer)];
    }

    /**
     * Writes a step's keys and values at their positions, in place: one scatter kernel for each, which
     * copies only the new elements. Computes keys and values now (realize what else needs their inputs
     * first, or those inputs are computed twice).
     *
     * @param layer the layer
     * @param positions int32 [t], each in [0, maxLength), from {@link #positions}
     * @param newKeys [b, kvHeads, t, headDim]
     * @param newValues [b, kvHeads, t, headDim]
     * @throws ShapeException if the shapes do not fit the cache
     */
    public void write(int layer, Tensor positions, Tensor newKeys, Tensor newValues) {
        Objects.requireNonNull(positions, "positions");
        Objects.requireNonNull(newKeys, "newKeys");
        Objects.requireNonNull(newValues, "newValues");
        checkLayer(layer);
        int[] expected = {batch, keyValueHeads, positions.rank() == 1 ? positions.length(0) : -1, headDim};
        if (positions.dtype() != DType.INT32 || positions.rank() != 1 || expected[2] > maxLength
                || !Arrays.equals(newKeys.shape(), expected) || !Arrays.equals(newValues.shape(), expected)) {
            throw new ShapeException("key/value cache", List.of(longs(positions.shape()), longs(newKeys.shape()),
                    longs(newValues.shape())), "positions must be int32 [t] and keys and values [" + batch + ", "
                    + keyValueHeads + ", t, " + headDim + "], t at most " + maxLength + " (the cache's positions), got positions "
                    + positions.dtype().numpyName() + Arrays.toString(positions.shape()));
        }
        Tensor index = positions.rearrange("t -> 1 1 t 1").expand(expected);
        Tensor.assign(List.of(keys[layer], values[layer]),
                List.of(keys[layer].scatter(2, index, newKeys), values[layer].scatter(2, index, newValues)));
    }

    /**
     * The causal mask over the cache: a query at position p may attend the keys at positions 0..p,
     * which are exactly those written so far.
     *
     * @param queryPositions int32 [t], the positions of the step's tokens
     * @return bool [1, 1, t, maxLength]
     */
    public Tensor mask(Tensor queryPositions) {
        Objects.requireNonNull(queryPositions, "queryPositions");
        return AttentionHeads.causal(queryPositions, AttentionHeads.positions(maxLength), null);
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return closed;
    }

    /** Releases every layer's K and V; a second call does nothing. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int layer = 0; layer < keys.length; layer++) {
            keys[layer].close();
            values[layer].close();
        }
    }

    private int checkLayer(int layer) {
        if (closed) {
            throw new EinopsException("the key/value cache was closed");
        }
        if (layer < 0 || layer >= keys.length) {
            throw new EinopsException("layer " + layer + " is outside the cache's " + keys.length + " layers");
        }
        return layer;
    }

    private static long[] longs(int[] shape) {
        return Arrays.stream(shape).asLongStream().toArray();
    }
}
