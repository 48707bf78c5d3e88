package dev.ein4j.models.tokenizer;

/**
 * The first stage of a tokenizer: rewrites a piece of the input (lowercasing, Unicode normalization,
 * replacing spaces...), keeping where each character came from. Implementations are immutable and
 * safe to share between threads.
 */
@FunctionalInterface
interface Normalizer {

    /**
     * @param text a piece of the input
     * @return the normalized piece (the same instance when nothing changes)
     */
    NormalizedText normalize(NormalizedText text);

    /**
     * @param text a string
     * @return the string normalized as a whole input
     */
    default String normalize(String text) {
        return normalize(NormalizedText.of(text)).text();
    }
}
