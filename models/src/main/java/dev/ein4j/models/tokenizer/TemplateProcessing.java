package dev.ein4j.models.tokenizer;

import java.util.List;

/**
 * A post-processor given as a template, for example {@code "[CLS] $A [SEP]"} or
 * {@code "<|begin_of_text|> $A"}: special tokens (each one or more ids) and the input ($A).
 */
final class TemplateProcessing implements PostProcessor {

    /**
     * One piece of the single-sequence template.
     *
     * @param specialIds the ids of a special token, or null for the input
     */
    record Piece(int[] specialIds) {

        static Piece input() {
            return new Piece(null);
        }

        boolean isInput() {
            return specialIds == null;
        }
    }

    private final List<Piece> single;

    /** @param single the single-sequence template */
    TemplateProcessing(List<Piece> single) {
        this.single = List.copyOf(single);
    }

    @Override
    public int[] process(int[] ids, boolean addSpecialTokens) {
        IdList out = new IdList(ids.length + 4);
        for (Piece piece : single) {
            if (piece.isInput()) {
                out.addAll(ids);
            } else if (addSpecialTokens) {
                out.addAll(piece.specialIds());
            }
        }
        return out.toArray();
    }
}
