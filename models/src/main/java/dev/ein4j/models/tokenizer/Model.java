package dev.ein4j.models.tokenizer;

/**
 * The third stage of a tokenizer: turns one pre-tokenized word into token ids. Implementations are
 * safe to share between threads.
 */
interface Model {

    /**
     * @param word a pre-tokenized word, not empty
     * @param out where to append its ids
     * @throws TokenizerException if the word needs an unknown token the vocabulary lacks
     */
    void tokenize(String word, IdList out);

    /** @return the model's tokens and ids */
    Vocabulary vocabulary();
}
