package dev.ein4j.models.generation;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.Objects;

/**
 * What every layer of one forward pass with a key/value cache shares: the cache, the positions of
 * the pass's tokens ({@code start .. start + length − 1}) and the causal mask of those positions over
 * the whole cache. The prompt is one step (start 0, its length); each new token is a step of length
 * 1, whose graph has the same structure at every position.
 *
 * <pre>{@code
 * DecodeStep prefill = DecodeStep.of(cache, 0, promptLength);
 * Tensor logits = model.nextTokenLogits(promptIds, prefill);          // [b, V], cache filled to promptLength
 * DecodeStep next = DecodeStep.of(cache, promptLength, 1);
 * }</pre>
 *
 * @param cache the cache the layers read and write
 * @param start the position of the first token
 * @param length the number of tokens, t
 * @param positions int32 [t], start .. start + t − 1 ({@link KeyValueCache#positions})
 * @param mask bool [1, 1, t, maxLength] ({@link KeyValueCache#mask})
 */
public record DecodeStep(KeyValueCache cache, int start, int length, Tensor positions, Tensor mask) {

    /**
     * @param cache the cache
     * @param start the first position
     * @param length the tokens
     * @param positions their positions, int32 [length]
     * @param mask their causal mask over the cache
     */
    public DecodeStep {
        Objects.requireNonNull(cache, "cache");
        Objects.requireNonNull(positions, "positions");
        Objects.requireNonNull(mask, "mask");
    }

    /**
     * @param cache the cache
     * @param start the first position, at least 0
     * @param length the tokens, at least 1
     * @return the step, its positions and mask made now (in the scope open on this thread, if any)
     * @throws EinopsException if the positions run past the cache
     */
    public static DecodeStep of(KeyValueCache cache, int start, int length) {
        Objects.requireNonNull(cache, "cache");
        if (start < 0 || length < 1 || (long) start + length > cache.maxLength()) {
            throw new EinopsException("positions " + start + " to " + ((long) start + length - 1) + " do not fit a key/value cache of "
                    + cache.maxLength() + " positions");
        }
        Tensor positions = KeyValueCache.positions(start, length);
        return new DecodeStep(cache, start, length, positions, cache.mask(positions));
    }

    /** @return start + length: the positions written once this step has run */
    public int end() {
        return start + length;
    }

    /**
     * Writes one layer's keys and values of this step into the cache. Computes them, and the tensors
     * given as {@code alongWith} (the query, the residual stream: whatever the layer reads next that
     * shares their inputs), in one pass first, so that nothing is computed twice.
     *
     * @param layer the layer
     * @param keys [b, kvHeads, t, headDim]
     * @param values [b, kvHeads, t, headDim]
     * @param alongWith tensors to compute in the same pass
     * @return the layer's keys and values over the whole cache, {keys, values}, each [b, kvHeads, maxLength, headDim]
     */
    public Tensor[] write(int layer, Tensor keys, Tensor values, Tensor... alongWith) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(alongWith, "alongWith");
        Tensor[] computed = Arrays.copyOf(alongWith, alongWith.length + 2);
        computed[alongWith.length] = keys;
        computed[alongWith.length + 1] = values;
        Tensor.realizeAll(computed);
        cache.write(layer, positions, keys, values);
        return new Tensor[] {cache.keys(layer), cache.values(layer)};
    }
}
