package dev.ein4j.models.tokenizer;

/** The WordLevel model: a word is its token, or the unknown token. */
final class WordLevel implements Model {

    private final Vocabulary vocabulary;
    private final String unknownToken;

    /**
     * @param vocabulary the tokens
     * @param unknownToken the token of a word not in the vocabulary
     */
    WordLevel(Vocabulary vocabulary, String unknownToken) {
        this.vocabulary = vocabulary;
        this.unknownToken = unknownToken;
    }

    @Override
    public Vocabulary vocabulary() {
        return vocabulary;
    }

    @Override
    public void tokenize(String word, IdList out) {
        int id = vocabulary.id(word);
        if (id < 0) {
            id = vocabulary.id(unknownToken);
            if (id < 0) {
                throw new TokenizerException("the unknown token \"" + unknownToken + "\" is not in the vocabulary");
            }
        }
        out.add(id);
    }
}
