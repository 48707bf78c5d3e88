package dev.ein4j.models.tokenizer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * GPT-2's byte-level scheme, as a pre-tokenizer and as a decoder.
 *
 * <p>As a pre-tokenizer: optionally puts a space in front of every piece that does not start with
 * one, splits it with GPT-2's expression (contractions, letters, digits, other symbols, white
 * space), then writes each word as the {@link ByteLevelAlphabet} stand-ins of its UTF-8 bytes:
 * {@code "Hello world"} becomes {@code "Hello", "Ġworld"}. As a decoder: turns the stand-ins of all
 * tokens back into bytes and decodes them as UTF-8, a U+FFFD for each invalid sequence (a token
 * that is not made of stand-ins contributes its own UTF-8 bytes).
 */
final class ByteLevel implements PreTokenizer, Decoder {

    /** GPT-2's split expression. */
    static final String GPT2_PATTERN = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

    private static final TextPattern GPT2 = TextPattern.regex(GPT2_PATTERN);

    private final boolean addPrefixSpace;
    private final boolean useRegex;

    /**
     * @param addPrefixSpace whether to put a space in front of each piece that lacks one
     * @param useRegex whether to split with GPT-2's expression
     */
    ByteLevel(boolean addPrefixSpace, boolean useRegex) {
        this.addPrefixSpace = addPrefixSpace;
        this.useRegex = useRegex;
    }

    @Override
    public List<NormalizedText> preTokenize(NormalizedText piece) {
        NormalizedText text = addPrefixSpace && !piece.text().startsWith(" ") ? piece.prepend(" ") : piece;
        List<NormalizedText> words = useRegex ? text.split(GPT2.spans(text.text()), SplitBehavior.ISOLATED) : List.of(text);
        List<NormalizedText> out = new ArrayList<>(words.size());
        for (NormalizedText word : words) {
            if (!word.isEmpty()) {
                out.add(encode(word));
            }
        }
        return out;
    }

    /**
     * @param text a text
     * @return the stand-ins of its UTF-8 bytes, each taking the origin of its character
     */
    static NormalizedText encode(NormalizedText text) {
        String source = text.text();
        NormalizedText.Builder out = new NormalizedText.Builder(source.length() * 2);
        StringBuilder standIns = new StringBuilder(4);
        for (int i = 0; i < source.length(); ) {
            int codePoint = source.codePointAt(i);
            standIns.setLength(0);
            ByteLevelAlphabet.appendStandIns(codePoint, standIns);
            out.append(standIns, text.originAt(i));
            i += Character.charCount(codePoint);
        }
        return out.build(text.originalStart());
    }

    @Override
    public List<String> decodeChain(List<String> tokens) {
        ByteSink bytes = new ByteSink();
        for (String token : tokens) {
            if (!bytes.appendStandIns(token)) {
                bytes.append(token.getBytes(StandardCharsets.UTF_8));
            }
        }
        return List.of(Utf8.decodeLossy(bytes.bytes, bytes.length));
    }

    /** A growable byte array. */
    private static final class ByteSink {

        private byte[] bytes = new byte[64];
        private int length;

        /** @return whether every character of the token was a stand-in (if not, nothing is appended) */
        boolean appendStandIns(String token) {
            ensure(token.length());
            for (int i = 0; i < token.length(); i++) {
                int b = ByteLevelAlphabet.byteOf(token.charAt(i));
                if (b < 0) {
                    return false;
                }
                bytes[length + i] = (byte) b;
            }
            length += token.length();
            return true;
        }

        void append(byte[] more) {
            ensure(more.length);
            System.arraycopy(more, 0, bytes, length, more.length);
            length += more.length;
        }

        private void ensure(int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }
    }
}
