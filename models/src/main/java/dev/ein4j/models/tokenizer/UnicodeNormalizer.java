package dev.ein4j.models.tokenizer;

import java.text.Normalizer.Form;

/**
 * The NFC, NFD, NFKC and NFKD normalizers, with {@link java.text.Normalizer} (Unicode 13).
 *
 * <p>Every character of the result takes the origin of the first character of the group it came
 * from, as Hugging Face aligns them. The groups are a starter and the marks that follow it; the
 * result is checked against normalizing the whole text at once, and when a composition reached
 * across a group (Hangul jamo, two-part vowels), the text is regrouped at ASCII characters, which
 * never combine with their neighbours.
 */
final class UnicodeNormalizer implements Normalizer {

    private final Form form;

    /** @param form the normalization form */
    UnicodeNormalizer(Form form) {
        this.form = form;
    }

    @Override
    public NormalizedText normalize(NormalizedText text) {
        String whole = text.text();
        if (java.text.Normalizer.isNormalized(whole, form)) {
            return text;
        }
        String expected = java.text.Normalizer.normalize(whole, form);
        NormalizedText grouped = normalizeGroups(text, false);
        if (grouped.text().equals(expected)) {
            return grouped;
        }
        return normalizeGroups(text, true);
    }

    private NormalizedText normalizeGroups(NormalizedText text, boolean atAsciiOnly) {
        String whole = text.text();
        NormalizedText.Builder out = new NormalizedText.Builder(whole.length() + 16);
        int start = 0;
        while (start < whole.length()) {
            int end = start + Character.charCount(whole.codePointAt(start));
            while (end < whole.length() && !startsGroup(whole.codePointAt(end), atAsciiOnly)) {
                end += Character.charCount(whole.codePointAt(end));
            }
            out.append(java.text.Normalizer.normalize(whole.substring(start, end), form), text.originAt(start));
            start = end;
        }
        return out.build(text.originalStart());
    }

    private static boolean startsGroup(int codePoint, boolean atAsciiOnly) {
        if (codePoint < 0x80 || atAsciiOnly) {
            return codePoint < 0x80;
        }
        int type = Character.getType(codePoint);
        boolean mark = type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
        boolean hangulJamoVowelOrTrail = (codePoint >= 0x1160 && codePoint <= 0x11FF) || (codePoint >= 0xD7B0 && codePoint <= 0xD7FF);
        return !mark && !hangulJamoVowelOrTrail;
    }

    @Override
    public String toString() {
        return form.name();
    }
}
