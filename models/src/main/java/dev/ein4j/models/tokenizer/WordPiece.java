package dev.ein4j.models.tokenizer;

/**
 * BERT's WordPiece model: greedy longest-match-first. The longest prefix of the word that is a token
 * is taken, then the longest continuation (with the "##" prefix) from there, and so on; a word with
 * a part that matches nothing, or longer than {@code max_input_chars_per_word} code points, is the
 * unknown token as a whole.
 */
final class WordPiece implements Model {

    private final Vocabulary vocabulary;
    private final String unknownToken;
    private final String continuingSubwordPrefix;
    private final int maxInputCharactersPerWord;

    /**
     * @param vocabulary the tokens
     * @param unknownToken the token of a word that cannot be tokenized
     * @param continuingSubwordPrefix the prefix of tokens that continue a word
     * @param maxInputCharactersPerWord the longest word (in code points) tokenized
     */
    WordPiece(Vocabulary vocabulary, String unknownToken, String continuingSubwordPrefix, int maxInputCharactersPerWord) {
        this.vocabulary = vocabulary;
        this.unknownToken = unknownToken;
        this.continuingSubwordPrefix = continuingSubwordPrefix;
        this.maxInputCharactersPerWord = maxInputCharactersPerWord;
    }

    @Override
    public Vocabulary vocabulary() {
        return vocabulary;
    }

    @Override
    public void tokenize(String word, IdList out) {
        if (word.codePointCount(0, word.length()) > maxInputCharactersPerWord) {
            out.add(unknownId());
            return;
        }
        IdList pieces = new IdList(8);
        int start = 0;
        while (start < word.length()) {
            int end = word.length();
            int found = -1;
            while (start < end) {
                String candidate = start > 0 ? continuingSubwordPrefix + word.substring(start, end) : word.substring(start, end);
                found = vocabulary.id(candidate);
                if (found >= 0) {
                    break;
                }
                end -= Character.charCount(word.codePointBefore(end));
            }
            if (found < 0) {
                out.add(unknownId());
                return;
            }
            pieces.add(found);
            start = end;
        }
        out.addAll(pieces.toArray());
    }

    private int unknownId() {
        int id = vocabulary.id(unknownToken);
        if (id < 0) {
            throw new TokenizerException("the unknown token \"" + unknownToken + "\" is not in the vocabulary");
        }
        return id;
    }
}
