package dev.ein4j.nn;

import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;

/**
 * A lookup table, PyTorch's {@code nn.Embedding}: {@link Functional#embedding} with a learned
 * {@code weight} [V, D] initialized N(0, 1).
 *
 * <pre>{@code
 * Embedding tokens = new Embedding(1000, 64);
 * Tensor vectors = tokens.forward(ids);          // int32 [b, t] -> [b, t, 64]
 * }</pre>
 */
public class Embedding extends Module {

    private final int paddingIndex;

    /**
     * @param numEmbeddings V, the number of rows
     * @param embeddingDim D, the length of each row
     */
    public Embedding(int numEmbeddings, int embeddingDim) {
        this(numEmbeddings, embeddingDim, -1, Generator.global(), false);
    }

    /**
     * @param numEmbeddings V, the number of rows
     * @param embeddingDim D, the length of each row
     * @param paddingIndex a row (negative counts from the end) initialized to zeros that gets no gradient
     * @param generator the random stream of the initial weights
     */
    public Embedding(int numEmbeddings, int embeddingDim, int paddingIndex, Generator generator) {
        this(numEmbeddings, embeddingDim, paddingIndex, generator, true);
    }

    private Embedding(int numEmbeddings, int embeddingDim, int paddingIndex, Generator generator, boolean padded) {
        Checks.notNull(generator, "generator");
        Checks.positive(numEmbeddings, "numEmbeddings");
        Checks.positive(embeddingDim, "embeddingDim");
        Tensor weight = Init.normal(generator, 0, 1, numEmbeddings, embeddingDim);
        if (padded) {
            this.paddingIndex = Embeddings.paddingRow(paddingIndex, weight);
            Tensor isPadding = Tensor.arange(numEmbeddings).eq(this.paddingIndex).reshape(numEmbeddings, 1);
            weight = Tensor.where(isPadding, Tensor.scalar(0.0), weight);
        } else {
            this.paddingIndex = -1;
        }
        registerParameter("weight", weight);
    }

    /**
     * @param indices int32, any shape, each in [0, V)
     * @return [*indices.shape, D]
     */
    @Override
    public Tensor forward(Tensor indices) {
        Checks.notNull(indices, "indices");
        return Embeddings.embedding(indices, weight(), paddingIndex);
    }

    /** @return the table [V, D] */
    public Tensor weight() {
        return parameter("weight");
    }

    @Override
    protected String extraRepresentation() {
        return weight().length(0) + ", " + weight().length(1) + (paddingIndex >= 0 ? ", padding_idx=" + paddingIndex : "");
    }
}
