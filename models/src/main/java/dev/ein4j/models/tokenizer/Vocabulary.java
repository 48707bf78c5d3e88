package dev.ein4j.models.tokenizer;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A model's tokens and ids, both ways: an open-addressing table from token to id (no boxing, one
 * probe sequence through two arrays, for the 128,000 tokens of Llama 3 and the three lookups per
 * merge at load), and the reverse as an array when the ids are nearly dense, a hash map otherwise
 * (a file may name ids far apart).
 */
final class Vocabulary {

    private final String[] keys;
    private final int[] values;
    private final int mask;
    private final int size;
    private final String[] tokensById;
    private final Map<Integer, String> sparseTokensById;

    private Vocabulary(String[] keys, int[] values, int size) {
        this.keys = keys;
        this.values = values;
        this.mask = keys.length - 1;
        this.size = size;
        int maxId = -1;
        for (int slot = 0; slot < keys.length; slot++) {
            if (keys[slot] != null) {
                maxId = Math.max(maxId, values[slot]);
            }
        }
        if (maxId < 2 * size + 1024) {
            tokensById = new String[maxId + 1];
            sparseTokensById = null;
        } else {
            tokensById = null;
            sparseTokensById = new HashMap<>();
        }
        for (int slot = 0; slot < keys.length; slot++) {
            if (keys[slot] != null) {
                if (tokensById != null) {
                    tokensById[values[slot]] = keys[slot];
                } else {
                    sparseTokensById.put(values[slot], keys[slot]);
                }
            }
        }
    }

    /**
     * @param ids tokens and their ids (non-negative)
     * @return the vocabulary; when two tokens share an id, either may name it (as in the library)
     */
    static Vocabulary of(Map<String, Integer> ids) {
        Builder builder = new Builder();
        ids.forEach(builder::put);
        return builder.build();
    }

    /**
     * @param token a token
     * @return its id, or -1
     */
    int id(String token) {
        for (int slot = slot(token.hashCode()); ; slot = (slot + 1) & mask) {
            String key = keys[slot];
            if (key == null) {
                return -1;
            }
            if (key.equals(token)) {
                return values[slot];
            }
        }
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
        return size;
    }

    private int slot(int hash) {
        return (hash ^ (hash >>> 16)) * 0x9E3779B9 >>> 1 & mask;
    }

    /** Collects tokens and ids; a token put again takes the new id (as a repeated JSON key does). */
    static final class Builder {

        private String[] keys = new String[1024];
        private int[] values = new int[1024];
        private int size;

        /**
         * @param token a token
         * @param id its id, non-negative
         */
        void put(String token, int id) {
            if (2 * (size + 1) > keys.length) {
                grow();
            }
            int mask = keys.length - 1;
            int hash = token.hashCode();
            for (int slot = (hash ^ (hash >>> 16)) * 0x9E3779B9 >>> 1 & mask; ; slot = (slot + 1) & mask) {
                if (keys[slot] == null) {
                    keys[slot] = token;
                    values[slot] = id;
                    size++;
                    return;
                }
                if (keys[slot].equals(token)) {
                    values[slot] = id;
                    return;
                }
            }
        }

        Vocabulary build() {
            return new Vocabulary(keys, values, size);
        }

        private void grow() {
            String[] oldKeys = keys;
            int[] oldValues = values;
            keys = new String[oldKeys.length * 2];
            values = new int[oldKeys.length * 2];
            size = 0;
            for (int slot = 0; slot < oldKeys.length; slot++) {
                if (oldKeys[slot] != null) {
                    put(oldKeys[slot], oldValues[slot]);
                }
            }
            Arrays.fill(oldKeys, null);
        }
    }
}
