package dev.ein4j.models.tokenizer;

import java.util.List;

/**
 * The second stage of a tokenizer: cuts a normalized piece into the words the model tokenizes one by
 * one (and may rewrite them, as ByteLevel and Metaspace do). Implementations are immutable and safe
 * to share between threads.
 */
@FunctionalInterface
interface PreTokenizer {

    /**
     * @param piece a normalized piece, not empty
     * @return its words in order; empty ones are allowed and dropped by the caller
     */
    List<NormalizedText> preTokenize(NormalizedText piece);
}
