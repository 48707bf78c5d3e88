package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds added tokens in a text, leftmost-longest and without overlap, as Hugging Face's
 * Aho-Corasick matcher does: the match that starts first wins, the longest among those, and the
 * search resumes after it.
 */
final class TokenTrie {

    private final Node root = new Node();
    private final BitSet firstCharacters = new BitSet();
    private boolean empty = true;

    /**
     * @param pattern a non-empty text
     * @param id what a match of it reports
     */
    void add(String pattern, int id) {
        firstCharacters.set(pattern.charAt(0));
        Node node = root;
        for (int i = 0; i < pattern.length(); i++) {
            node = node.children.computeIfAbsent(pattern.charAt(i), c -> new Node());
        }
        if (node.id < 0) {
            node.id = id; // a repeated pattern reports its first id, as the lowest pattern wins in Aho-Corasick
        }
        empty = false;
    }

    /**
     * @param text a text
     * @return the matches in order: {start, end, id} each
     */
    List<int[]> matches(String text) {
        List<int[]> out = new ArrayList<>();
        if (empty) {
            return out;
        }
        int start = 0;
        while (start < text.length()) {
            if (!firstCharacters.get(text.charAt(start))) {
                start++; // most positions start no token: skip them without a map lookup
                continue;
            }
            Node node = root;
            int end = -1;
            int id = -1;
            for (int i = start; i < text.length(); i++) {
                node = node.children.get(text.charAt(i));
                if (node == null) {
                    break;
                }
                if (node.id >= 0) {
                    end = i + 1;
                    id = node.id;
                }
            }
            if (end > 0) {
                out.add(new int[] {start, end, id});
                start = end;
            } else {
                start++;
            }
        }
        return out;
    }

    private static final class Node {
        private final Map<Character, Node> children = new HashMap<>(4);
        private int id = -1;
    }
}
