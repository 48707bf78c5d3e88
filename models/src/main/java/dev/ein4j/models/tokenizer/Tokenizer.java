package dev.ein4j.models.tokenizer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A Hugging Face tokenizer read from its {@code tokenizer.json}, giving the ids and text that the
 * Python {@code tokenizers} library gives, in pure Java.
 *
 * <pre>{@code
 * Tokenizer tokenizer = Tokenizer.load(Path.of("gpt2"));        // a folder with tokenizer.json, or the file
 * int[] ids = tokenizer.encode("Hello 🌍  world");               // Tokenizer.encode(text).ids, post-processor applied
 * String text = tokenizer.decode(ids, false);                    // decode(ids, skip_special_tokens=False)
 * StreamingDecoder stream = tokenizer.streamingDecoder(true);
 * for (int id : generated) {
 *     System.out.print(stream.next(id));                          // only whole characters, as they complete
 * }
 * }</pre>
 *
 * <p>Encoding runs Hugging Face's pipeline: the text is cut at the added tokens, each piece is
 * normalized and cut into words by the pre-tokenizer, each word is tokenized by the model (BPE,
 * WordPiece or WordLevel), and the post-processor adds special tokens; truncation and padding from
 * the file are applied to the single sequence. Decoding maps ids to tokens (unknown ids are
 * skipped, as the library does) and runs the decoder. Supported components are listed in the
 * package documentation; any other is a {@link TokenizerException} at load time.
 *
 * <p>Instances are immutable and safe to use from several threads.
 */
public final class Tokenizer {

    private final TokenizerParts parts;
    private final SequenceMarkers markers;

    Tokenizer(TokenizerParts parts, SequenceMarkers markers) {
        this.parts = parts;
        this.markers = markers;
    }

    /**
     * Reads a tokenizer.json file.
     *
     * @param file a tokenizer.json
     * @return the tokenizer
     * @throws TokenizerException if the file is not a tokenizer this reader supports (the message
     *     names the file and the JSON path at fault)
     * @throws java.io.UncheckedIOException if the file cannot be read
     */
    public static Tokenizer fromFile(Path file) {
        Objects.requireNonNull(file, "file");
        TokenizerParts parts = TokenizerReader.read(file);
        return new Tokenizer(parts, SequenceMarkers.infer(parts, null));
    }

    /**
     * Reads a Hugging Face folder (what {@code save_pretrained} writes): its tokenizer.json, and the
     * bos_token and eos_token of its tokenizer_config.json when there is one. A path to a file is
     * read as {@link #fromFile}.
     *
     * @param path a folder holding tokenizer.json, or a tokenizer.json
     * @return the tokenizer
     * @throws TokenizerException if the folder has no tokenizer.json or a file is malformed
     * @throws java.io.UncheckedIOException if a file cannot be read
     */
    public static Tokenizer load(Path path) {
        Objects.requireNonNull(path, "path");
        if (!Files.isDirectory(path)) {
            return fromFile(path);
        }
        Path file = path.resolve("tokenizer.json");
        if (!Files.isRegularFile(file)) {
            throw new TokenizerException(path + ": the folder has no tokenizer.json");
        }
        TokenizerParts parts = TokenizerReader.read(file);
        Path config = path.resolve("tokenizer_config.json");
        return new Tokenizer(parts, SequenceMarkers.infer(parts, Files.isRegularFile(config) ? config : null));
    }

    /**
     * Reads a tokenizer from the text of a tokenizer.json.
     *
     * @param json the document
     * @param source what to call it in messages (a file name)
     * @return the tokenizer
     * @throws TokenizerException if the document is not a tokenizer this reader supports
     */
    public static Tokenizer fromJson(String json, String source) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(source, "source");
        TokenizerParts parts = TokenizerReader.parse(json, source);
        return new Tokenizer(parts, SequenceMarkers.infer(parts, null));
    }

    /**
     * Encodes a text with the special tokens of the post-processor ({@code encode(text).ids}).
     *
     * @param text the text
     * @return its ids
     * @throws TokenizerException if the text has an unpaired surrogate, or needs an unknown token the
     *     vocabulary lacks
     */
    public int[] encode(String text) {
        Objects.requireNonNull(text, "text");
        return encode(text, true);
    }

    /**
     * Encodes a text ({@code encode(text, add_special_tokens=...).ids}).
     *
     * @param text the text
     * @param addSpecialTokens whether the post-processor adds its special tokens ([CLS], &lt;s&gt;...)
     * @return its ids
     * @throws TokenizerException if the text has an unpaired surrogate, or needs an unknown token the
     *     vocabulary lacks
     */
    public int[] encode(String text, boolean addSpecialTokens) {
        Objects.requireNonNull(text, "text");
        requireUnicode(text);
        IdList ids = new IdList(text.length() / 3 + 8);
        for (AddedVocabulary.Piece piece : parts.addedVocabulary().extract(text, parts.normalizer())) {
            if (piece.tokenId() >= 0) {
                ids.add(piece.tokenId());
            } else if (parts.preTokenizer() == null) {
                parts.model().tokenize(piece.text().text(), ids);
            } else {
                for (NormalizedText word : parts.preTokenizer().preTokenize(piece.text())) {
                    if (!word.isEmpty()) {
                        parts.model().tokenize(word.text(), ids);
                    }
                }
            }
        }
        return parts.postProcess(ids.toArray(), addSpecialTokens);
    }

    /**
     * Decodes ids ({@code decode(ids, skip_special_tokens=...)}). Ids that are no token are
     * skipped, as the library does.
     *
     * @param ids token ids
     * @param skipSpecialTokens whether to leave out special tokens
     * @return the text
     * @throws TokenizerException if an id is negative
     */
    public String decode(int[] ids, boolean skipSpecialTokens) {
        Objects.requireNonNull(ids, "ids");
        return decode(ids, 0, ids.length, skipSpecialTokens);
    }

    String decode(int[] ids, int from, int to, boolean skipSpecialTokens) {
        List<String> tokens = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            if (ids[i] < 0) {
                throw new TokenizerException("id " + ids[i] + " at index " + i + " is negative");
            }
            String token = token(ids[i]);
            if (token != null && !(skipSpecialTokens && parts.addedVocabulary().isSpecial(token))) {
                tokens.add(token);
            }
        }
        return parts.decoder() == null ? String.join(" ", tokens) : parts.decoder().decode(tokens);
    }

    /**
     * @param skipSpecialTokens whether to leave out special tokens
     * @return a decoder that turns ids, one at a time, into the text that can be printed
     */
    public StreamingDecoder streamingDecoder(boolean skipSpecialTokens) {
        return new StreamingDecoder(this, skipSpecialTokens);
    }

    /**
     * @return the number of distinct tokens, added tokens included ({@code get_vocab_size()}); ids
     *     can reach past it when the vocabulary has gaps
     */
    public int vocabularySize() {
        Vocabulary model = parts.model().vocabulary();
        int size = model.size();
        for (String content : parts.addedVocabulary().ids().keySet()) {
            size += model.id(content) < 0 ? 1 : 0;
        }
        return size;
    }

    /**
     * @param token a token's text
     * @return its id (added tokens first, then the model's vocabulary), if it is a token
     */
    public OptionalInt tokenToId(String token) {
        Objects.requireNonNull(token, "token");
        int id = parts.addedVocabulary().id(token);
        if (id < 0) {
            id = parts.model().vocabulary().id(token);
        }
        return id < 0 ? OptionalInt.empty() : OptionalInt.of(id);
    }

    /**
     * @param id a token id
     * @return its token (added tokens first, then the model's vocabulary), if there is one
     */
    public Optional<String> idToToken(int id) {
        return Optional.ofNullable(token(id));
    }

    /** @return the ids of the special added tokens, in increasing order */
    public int[] specialTokenIds() {
        return parts.addedVocabulary().specialIds();
    }

    /**
     * @param id a token id
     * @return whether it is the id of an added token marked special (which {@code decode(ids, true)} skips,
     *     unless the token is {@code normalized} and its normalized text differs, as in the library)
     */
    public boolean isSpecialToken(int id) {
        return parts.addedVocabulary().isSpecialId(id);
    }

    /**
     * @return the beginning-of-sequence id: tokenizer_config.json's bos_token when loaded from a
     *     folder, else the first special token the post-processor puts before the text, else a special
     *     token with a conventional name (&lt;s&gt;, &lt;|begin_of_text|&gt;, [CLS], &lt;|endoftext|&gt;...)
     */
    public OptionalInt beginningOfSequenceId() {
        return markers.beginning();
    }

    /**
     * @return the end-of-sequence id: tokenizer_config.json's eos_token when loaded from a folder,
     *     else the last special token the post-processor puts after the text, else a special token with
     *     a conventional name (&lt;/s&gt;, &lt;|end_of_text|&gt;, &lt;|endoftext|&gt;, [SEP]...)
     */
    public OptionalInt endOfSequenceId() {
        return markers.end();
    }

    private String token(int id) {
        String added = parts.addedVocabulary().decoded(id);
        return added != null ? added : parts.model().vocabulary().token(id);
    }

    private static void requireUnicode(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new TokenizerException("the text has an unpaired surrogate at index " + i + ", so it is not Unicode text");
            }
        }
    }
}
