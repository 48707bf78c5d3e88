package dev.ein4j.models.tokenizer;

import java.text.Normalizer.Form;

/**
 * BERT's normalizer, in Hugging Face's order: clean the text (delete NUL, U+FFFD and control
 * characters, turn white space into spaces), put spaces around CJK ideographs, strip accents (NFD,
 * then delete non-spacing marks), lowercase. Accents are stripped when asked, or by default when
 * lowercasing.
 */
final class BertNormalizer implements Normalizer {

    private static final UnicodeNormalizer NFD = new UnicodeNormalizer(Form.NFD);

    private final boolean cleanText;
    private final boolean handleChineseCharacters;
    private final boolean stripAccents;
    private final boolean lowercase;

    /**
     * @param cleanText whether to delete controls and map white space to spaces
     * @param handleChineseCharacters whether to put spaces around CJK ideographs
     * @param stripAccents whether to strip accents; null to follow {@code lowercase}
     * @param lowercase whether to lowercase
     */
    BertNormalizer(boolean cleanText, boolean handleChineseCharacters, Boolean stripAccents, boolean lowercase) {
        this.cleanText = cleanText;
        this.handleChineseCharacters = handleChineseCharacters;
        this.stripAccents = stripAccents == null ? lowercase : stripAccents;
        this.lowercase = lowercase;
    }

    @Override
    public NormalizedText normalize(NormalizedText text) {
        NormalizedText out = text;
        if (cleanText) {
            out = out.mapCodePoints(BertNormalizer::clean);
        }
        if (handleChineseCharacters) {
            out = out.mapCodePoints(c -> CharacterClasses.isChineseCharacter(c) ? " " + new String(Character.toChars(c)) + " " : null);
        }
        if (stripAccents) {
            out = NFD.normalize(out).mapCodePoints(c -> CharacterClasses.NONSPACING_MARK.contains(c) ? "" : null);
        }
        if (lowercase) {
            out = out.mapCodePoints(CaseMapping::lowercase);
        }
        return out;
    }

    private static String clean(int codePoint) {
        if (CharacterClasses.BERT_REMOVED.contains(codePoint)) {
            return "";
        }
        return codePoint != ' ' && CharacterClasses.isWhitespace(codePoint) ? " " : null;
    }
}
