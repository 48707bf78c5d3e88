package dev.ein4j.models.tokenizer;

import java.util.List;

/**
 * The last stage of decoding: turns the tokens of some ids back into text. Decoders chain: each
 * maps the list of token strings to a new list, and the final list is concatenated.
 * Implementations are immutable and safe to share between threads.
 */
@FunctionalInterface
interface Decoder {

    /**
     * @param tokens token strings in order
     * @return the decoded strings, to concatenate (or to pass to the next decoder of a sequence)
     */
    List<String> decodeChain(List<String> tokens);

    /**
     * @param tokens token strings in order
     * @return the text
     */
    default String decode(List<String> tokens) {
        return String.join("", decodeChain(tokens));
    }
}
