package dev.ein4j.models.tokenizer;

/**
 * A token of tokenizer.json's "added_tokens": matched in the text before the model sees it.
 *
 * @param content the text of the token
 * @param singleWord whether it matches only where no word character touches it
 * @param leftStrip whether it swallows the white space before it
 * @param rightStrip whether it swallows the white space after it
 * @param normalized whether it is matched in the normalized text (else in the raw text)
 * @param special whether it is special (skipped when decoding with skipSpecialTokens)
 */
record AddedToken(String content, boolean singleWord, boolean leftStrip, boolean rightStrip, boolean normalized,
                  boolean special) {
}
