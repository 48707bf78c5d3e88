package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The added tokens of a tokenizer, with Hugging Face's rules.
 *
 * <p>Ids: a token already in the model's vocabulary keeps its id; any other gets the next id after
 * the model's vocabulary and the added tokens so far (so the ids written in the file are not
 * trusted, exactly as the library does not trust them).
 *
 * <p>Encoding: the raw text is first cut at the added tokens that are not {@code normalized}; each
 * remaining piece is normalized and cut at the {@code normalized} ones (whose content was
 * normalized too). A match of a {@code single_word} token counts only with no word character
 * before or after it; {@code lstrip} and {@code rstrip} extend a match over the white space around it.
 */
final class AddedVocabulary {

    /**
     * A piece of the input after extraction: an added token, or normalized text for the pre-tokenizer.
     *
     * @param text the normalized text (null for a token)
     * @param tokenId the id of the added token (-1 for text)
     */
    record Piece(NormalizedText text, int tokenId) {
    }

    private final Map<String, Integer> idsByContent = new HashMap<>();
    private final Map<Integer, AddedToken> tokensById = new HashMap<>();
    private final Map<Integer, String> decodedById = new HashMap<>();
    private final Set<String> specialContents = new LinkedHashSet<>();
    private final TokenTrie rawTrie = new TokenTrie();
    private final TokenTrie normalizedTrie = new TokenTrie();

    /**
     * @param tokens the added tokens in file order
     * @param model the model's vocabulary
     * @param normalizer the tokenizer's normalizer (for normalized tokens), or null
     */
    AddedVocabulary(List<AddedToken> tokens, Vocabulary model, Normalizer normalizer) {
        List<AddedToken> specials = new ArrayList<>();
        List<AddedToken> classics = new ArrayList<>();
        for (AddedToken token : tokens) {
            if (token.special() && !token.content().isEmpty() && specialContents.add(token.content())) {
                specials.add(token);
            }
        }
        for (AddedToken token : tokens) {
            if (token.content().isEmpty() || tokensById.containsValue(token)) {
                continue;
            }
            int id = idOf(token.content(), model);
            idsByContent.put(token.content(), id);
            tokensById.put(id, token);
            if (!specialContents.contains(token.content())) {
                classics.add(token);
            }
        }
        List<AddedToken> all = new ArrayList<>(specials);
        all.addAll(classics);
        for (AddedToken token : all) {
            int id = idsByContent.get(token.content());
            if (!token.normalized()) {
                rawTrie.add(token.content(), id);
            } else {
                String pattern = normalizer == null ? token.content() : normalizer.normalize(token.content());
                if (!pattern.isEmpty()) {
                    normalizedTrie.add(pattern, id);
                }
            }
        }
        for (Map.Entry<Integer, AddedToken> entry : tokensById.entrySet()) {
            AddedToken token = entry.getValue();
            boolean normalize = token.normalized() && normalizer != null;
            decodedById.put(entry.getKey(), normalize ? normalizer.normalize(token.content()) : token.content());
        }
    }

    private int idOf(String content, Vocabulary model) {
        Integer existing = idsByContent.get(content);
        if (existing != null) {
            return existing;
        }
        int inModel = model.id(content);
        if (inModel >= 0) {
            return inModel;
        }
        int max = idsByContent.values().stream().mapToInt(Integer::intValue).max().orElse(-1);
        return max < 0 || (max < model.size() && model.size() > 0) ? model.size() : max + 1;
    }

    /**
     * @param content a token's text
     * @return its id, or -1 if it is not an added token
     */
    int id(String content) {
        Integer id = idsByContent.get(content);
        return id == null ? -1 : id;
    }

    /**
     * The token string an id decodes to: the content, normalized for a {@code normalized} token (so a
     * special token "Spec" behind a lowercasing normalizer decodes as "spec", which is not skipped
     * as special: the library's behaviour).
     *
     * @param id an id
     * @return the token string of the added token with that id, or null
     */
    String decoded(int id) {
        return decodedById.get(id);
    }

    /**
     * @param id an id
     * @return whether it is the id of an added token marked special
     */
    boolean isSpecialId(int id) {
        AddedToken token = tokensById.get(id);
        return token != null && token.special();
    }

    /**
     * @param content a token string
     * @return whether it is the content of a special added token (decoding skips such strings)
     */
    boolean isSpecial(String content) {
        return specialContents.contains(content);
    }

    /** @return the ids of the added tokens marked special */
    int[] specialIds() {
        return tokensById.entrySet().stream().filter(e -> e.getValue().special()).mapToInt(Map.Entry::getKey).sorted().toArray();
    }

    /** @return the contents of all added tokens and their ids */
    Map<String, Integer> ids() {
        return idsByContent;
    }

    /**
     * @param input the raw text
     * @param normalizer the tokenizer's normalizer, or null
     * @return the added tokens and the normalized text between them, in order, empty text dropped
     */
    List<Piece> extract(String input, Normalizer normalizer) {
        List<Piece> out = new ArrayList<>();
        for (Piece raw : split(NormalizedText.of(input), rawTrie)) {
            if (raw.tokenId() >= 0) {
                out.add(raw);
                continue;
            }
            NormalizedText normalized = normalizer == null ? raw.text() : normalizer.normalize(raw.text());
            if (normalized.isEmpty()) {
                continue;
            }
            for (Piece piece : split(normalized, normalizedTrie)) {
                if (piece.tokenId() >= 0 || !piece.text().isEmpty()) {
                    out.add(piece);
                }
            }
        }
        return out;
    }

    /** Hugging Face's {@code find_matches} and {@code split_with_indices}; empty text pieces are dropped. */
    private List<Piece> split(NormalizedText text, TokenTrie trie) {
        String sentence = text.text();
        List<Piece> out = new ArrayList<>();
        int cursor = 0;
        for (int[] match : trie.matches(sentence)) {
            int start = match[0];
            int stop = match[1];
            AddedToken token = tokensById.get(match[2]);
            if (token.singleWord() && !isSingleWord(sentence, start, stop)) {
                continue;
            }
            if (token.leftStrip()) {
                int newStart = start;
                while (newStart > 0 && CharacterClasses.isWhitespace(sentence.codePointBefore(newStart))) {
                    newStart -= Character.charCount(sentence.codePointBefore(newStart));
                }
                start = Math.max(newStart, cursor);
            }
            if (token.rightStrip()) {
                while (stop < sentence.length() && CharacterClasses.isWhitespace(sentence.codePointAt(stop))) {
                    stop += Character.charCount(sentence.codePointAt(stop));
                }
            }
            if (cursor < start) {
                out.add(new Piece(text.slice(cursor, start), -1));
            }
            out.add(new Piece(null, match[2]));
            cursor = stop;
        }
        if (cursor < sentence.length()) {
            out.add(new Piece(text.slice(cursor, sentence.length()), -1));
        }
        return out;
    }

    /** @return whether the match has no word character ({@code \w}) right before or right after it */
    private static boolean isSingleWord(String sentence, int start, int stop) {
        boolean clearBefore = start == 0 || !CharacterClasses.WORD.contains(sentence.codePointBefore(start));
        boolean clearAfter = stop == sentence.length() || !CharacterClasses.WORD.contains(sentence.codePointAt(stop));
        return clearBefore && clearAfter;
    }
}
