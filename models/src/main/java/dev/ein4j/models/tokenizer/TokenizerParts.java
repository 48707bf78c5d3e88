package dev.ein4j.models.tokenizer;

/**
 * The components of a tokenizer as tokenizer.json declares them; the optional ones are null when
 * the file has none.
 *
 * @param normalizer the normalizer, or null
 * @param preTokenizer the pre-tokenizer, or null (a piece is then one word)
 * @param model the model
 * @param postProcessor the post-processor, or null
 * @param decoder the decoder, or null (tokens are then joined with spaces)
 * @param addedVocabulary the added tokens
 * @param truncation the truncation, or null
 * @param padding the padding, or null
 */
record TokenizerParts(Normalizer normalizer, PreTokenizer preTokenizer, Model model, PostProcessor postProcessor,
                      Decoder decoder, AddedVocabulary addedVocabulary, Truncation truncation, Padding padding) {

    /**
     * Hugging Face's {@code post_process} for one sequence: truncate (leaving room for the special
     * tokens), add the special tokens, pad.
     *
     * @param ids the ids of the input
     * @param addSpecialTokens whether to add special tokens
     * @return the final ids
     */
    int[] postProcess(int[] ids, boolean addSpecialTokens) {
        int[] out = ids;
        if (truncation != null) {
            out = truncation.apply(out, addSpecialTokens ? specialTokenCount() : 0);
        }
        if (postProcessor != null) {
            out = postProcessor.process(out, addSpecialTokens);
        }
        if (padding != null) {
            out = padding.apply(out);
        }
        return out;
    }

    /** @return how many ids the post-processor adds to a single sequence */
    int specialTokenCount() {
        return postProcessor == null ? 0 : postProcessor.process(new int[0], true).length;
    }
}
