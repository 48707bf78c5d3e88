package dev.ein4j.models.tokenizer;

import java.util.Arrays;

/**
 * Decodes ids one at a time, as a generation loop produces them, returning only text that is safe
 * to print: nothing while the ids so far end in an incomplete UTF-8 sequence (a byte-level token
 * holding half an emoji, or {@code <0xE2>} of a byte-fallback character), then the whole character.
 *
 * <pre>{@code
 * StreamingDecoder stream = tokenizer.streamingDecoder(true);
 * for (int id : generatedIds) {
 *     System.out.print(stream.next(id));
 * }
 * System.out.print(stream.finish());
 * }</pre>
 *
 * <p>This is Hugging Face's {@code DecodeStream}: each step decodes a short window of ids (the
 * tokens of the previous chunk for context, then the new ones) and returns what the window gained
 * past the previous chunk, so that a decoder's rule for the first token (Metaspace drops its
 * leading space) applies only at the true start. The printed pieces concatenate to
 * {@link Tokenizer#decode} of all the ids. Not thread-safe: one instance per stream.
 */
public final class StreamingDecoder {

    private final Tokenizer tokenizer;
    private final boolean skipSpecialTokens;
    private int[] ids = new int[16];
    private int size;
    private String prefix = "";
    private int prefixIndex;

    StreamingDecoder(Tokenizer tokenizer, boolean skipSpecialTokens) {
        this.tokenizer = tokenizer;
        this.skipSpecialTokens = skipSpecialTokens;
    }

    /**
     * @param id the next id
     * @return the text it completes, or "" when it completes none yet
     * @throws TokenizerException if the id is negative, or the decoded text stopped starting with what
     *     was already returned (a decoder whose output depends on later tokens)
     */
    public String next(int id) {
        if (size == ids.length) {
            ids = Arrays.copyOf(ids, size * 2);
        }
        ids[size++] = id;
        String text = tokenizer.decode(ids, 0, size, skipSpecialTokens);
        if (utf8Length(text) <= utf8Length(prefix) || text.endsWith("\uFFFD")) {
            return "";
        }
        if (!text.startsWith(prefix)) {
            throw new TokenizerException("the decoded text " + JsonNode.quote(text) + " no longer starts with "
                    + JsonNode.quote(prefix) + ", which was already returned");
        }
        String fresh = text.substring(prefix.length());
        int newPrefixIndex = size - prefixIndex;
        System.arraycopy(ids, prefixIndex, ids, 0, size - prefixIndex);
        size -= prefixIndex;
        prefix = tokenizer.decode(ids, 0, size, skipSpecialTokens);
        prefixIndex = newPrefixIndex;
        return fresh;
    }

    /**
     * @return the text held back at the end of the stream (an incomplete character decodes to U+FFFD),
     *     or "" when everything was returned
     */
    public String finish() {
        String text = tokenizer.decode(ids, 0, size, skipSpecialTokens);
        String rest = text.startsWith(prefix) ? text.substring(prefix.length()) : "";
        size = 0;
        prefix = "";
        prefixIndex = 0;
        return rest;
    }

    private static int utf8Length(String text) {
        int length = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            length += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        return length;
    }
}
