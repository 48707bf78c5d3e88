package dev.ein4j.models.tokenizer;

/**
 * What a tokenizer does with the ids of a whole input: add special tokens around them (BERT's
 * [CLS] ... [SEP], Llama's &lt;s&gt; ...). Only single sequences are encoded here (no pairs).
 * Implementations are immutable and safe to share between threads.
 */
@FunctionalInterface
interface PostProcessor {

    /**
     * @param ids the ids of the input
     * @param addSpecialTokens whether to add the special tokens (else only the sequence parts of a
     *     template remain)
     * @return the final ids (a new array, or {@code ids} itself)
     */
    int[] process(int[] ids, boolean addSpecialTokens);
}
