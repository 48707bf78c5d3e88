package dev.ein4j.models.tokenizer;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * A model's tokens and ids, both ways. Ids need not be dense: the reverse map is an array when
 * they nearly are, a hash map otherwise (a file may name ids far apart).
 */
final class Vocabulary {

    private final Map<String, Integer> ids;
    private final String[] tokensById;
    private final Map<Integer, String> sparseTokensById;

    /** @param ids the tokens and their ids (non-negative); when two tokens share an id, the later one names it */
    Vocabulary(Map<String, Integer> ids) {
        this.ids = new HashMap<>(ids);
        int maxId = ids.values().stream().mapToInt(Integer::intValue).max().orElse(-1);
        if (maxId < 2 * ids.size() + 1024) {
            tokensById = new String[maxId + 1];
            ids.forEach((token, id) -> tokensById[id] = token);
            sparseTokensById = null;
        } else {
            tokensById = null;
            sparseTokensById = new HashMap<>();
            ids.forEach((token, id) -> sparseTokensById.put(id, token));
        }
    }

    /**
     * @param token a token
     * @return its id, or -1
     */
    int id(String token) {
        Integer id = ids.get(token);
        return id == null ? -1 : id;
    }

    /**
     * @param id an id
     * @return its token, or null
     */
    String token(int id) {
        if (tokensById != null) {
            return id >= 0 && id < tokensById.length ? tokensById[id] : null;
        }
        return sparseTokensById.get(id);
    }

    /** @return how many distinct tokens there are */
    int size() {
        return ids.size();
    }

    /** @return the tokens and their ids (unmodifiable) */
    Map<String, Integer> asMap() {
        return Collections.unmodifiableMap(ids);
    }
}
