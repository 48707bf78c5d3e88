package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
import java.util.List;

/**
 * SentencePiece's metaspace, as a pre-tokenizer and as a decoder.
 *
 * <p>As a pre-tokenizer: every space becomes the replacement (default "▁"), the replacement is put
 * in front of a piece that does not start with it (always, only for the piece at the very start of
 * the input, or never), then the piece is optionally split before each replacement:
 * {@code "Hey friend"} becomes {@code "▁Hey", "▁friend"}. As a decoder: every replacement becomes a
 * space, except in the first token, where (unless the scheme is "never") they are dropped.
 */
final class Metaspace implements PreTokenizer, Decoder {

    /** When the replacement is put in front of a piece. */
    enum PrependScheme {
        ALWAYS, FIRST, NEVER
    }

    private final int replacement;
    private final String replacementText;
    private final PrependScheme scheme;
    private final boolean split;

    /**
     * @param replacement the code point that stands for a space
     * @param scheme when to put it in front of a piece
     * @param split whether to split before each replacement
     */
    Metaspace(int replacement, PrependScheme scheme, boolean split) {
        this.replacement = replacement;
        this.replacementText = new String(Character.toChars(replacement));
        this.scheme = scheme;
        this.split = split;
    }

    @Override
    public List<NormalizedText> preTokenize(NormalizedText piece) {
        NormalizedText text = piece.mapCodePoints(c -> c == ' ' ? replacementText : null);
        boolean needsPrefix = !text.text().startsWith(replacementText);
        if (needsPrefix && (scheme == PrependScheme.ALWAYS || (scheme == PrependScheme.FIRST && text.originalStart() == 0))) {
            text = text.prepend(replacementText);
        }
        if (!split) {
            return List.of(text);
        }
        return text.split(Span.ofCodePoints(text.text(), c -> c == replacement), SplitBehavior.MERGED_WITH_NEXT);
    }

    @Override
    public List<String> decodeChain(List<String> tokens) {
        List<String> out = new ArrayList<>(tokens.size());
        for (int i = 0; i < tokens.size(); i++) {
            String space = i == 0 && scheme != PrependScheme.NEVER ? "" : " ";
            out.add(tokens.get(i).replace(replacementText, space));
        }
        return out;
    }
}
