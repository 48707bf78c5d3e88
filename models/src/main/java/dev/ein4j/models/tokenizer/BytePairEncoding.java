package dev.ein4j.models.tokenizer;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The BPE model: a word starts as one symbol per code point (with the continuation prefix on all
 * but the first and the end-of-word suffix on the last, when the model has them) and adjacent
 * symbols are merged by rank ({@link BpeWord}).
 *
 * <p>A code point missing from the vocabulary becomes its {@code <0xNN>} byte tokens when
 * {@code byte_fallback} is on and they all exist; else the unknown token (consecutive unknowns fused
 * into one when {@code fuse_unk} is on); else it is dropped. With {@code ignore_merges} a word that is
 * itself a token is that token. Merged words are cached (up to {@value #CACHE_CAPACITY} words of at
 * most {@value #CACHEABLE_LENGTH} characters), as the Rust crate does. Dropout is not applied:
 * encoding is deterministic.
 */
final class BytePairEncoding implements Model {

    static final int CACHE_CAPACITY = 10_000;
    static final int CACHEABLE_LENGTH = 256;

    private final Vocabulary vocabulary;
    private final MergeTable merges;
    private final Options options;
    private final int[] byteTokens = new int[256];
    private final Map<String, int[]> cache = new ConcurrentHashMap<>();

    /**
     * The switches of a BPE model.
     *
     * @param unknownToken the token for unknown code points, or null
     * @param continuingSubwordPrefix the prefix of symbols that do not start a word, or null
     * @param endOfWordSuffix the suffix of the symbol that ends a word, or null
     * @param fuseUnknown whether consecutive unknowns become one unknown token
     * @param byteFallback whether unknown code points become byte tokens
     * @param ignoreMerges whether a word that is in the vocabulary is taken whole
     */
    record Options(String unknownToken, String continuingSubwordPrefix, String endOfWordSuffix, boolean fuseUnknown,
                   boolean byteFallback, boolean ignoreMerges) {
    }

    /**
     * @param vocabulary the tokens
     * @param merges the merges, by token ids
     * @param options the switches
     */
    BytePairEncoding(Vocabulary vocabulary, MergeTable merges, Options options) {
        this.vocabulary = vocabulary;
        this.merges = merges;
        this.options = options;
        for (int b = 0; b < 256; b++) {
            byteTokens[b] = vocabulary.id(String.format("<0x%02X>", b));
        }
    }

    @Override
    public Vocabulary vocabulary() {
        return vocabulary;
    }

    @Override
    public void tokenize(String word, IdList out) {
        if (word.isEmpty()) {
            return;
        }
        if (options.ignoreMerges()) {
            int id = vocabulary.id(word);
            if (id >= 0) {
                out.add(id);
                return;
            }
        }
        int[] cached = cache.get(word);
        if (cached == null) {
            IdList ids = new IdList(word.length());
            merge(word).appendTo(ids);
            cached = ids.toArray();
            if (word.length() <= CACHEABLE_LENGTH && cache.size() < CACHE_CAPACITY) {
                cache.put(word, cached);
            }
        }
        out.addAll(cached);
    }

    private BpeWord merge(String word) {
        BpeWord symbols = new BpeWord();
        int pendingUnknown = -1;
        for (int i = 0; i < word.length(); ) {
            int end = i + Character.charCount(word.codePointAt(i));
            String symbol = symbol(word, i, end);
            int id = vocabulary.id(symbol);
            if (id >= 0) {
                if (pendingUnknown >= 0) {
                    symbols.add(pendingUnknown);
                    pendingUnknown = -1;
                }
                symbols.add(id);
            } else if (!(options.byteFallback() && addBytes(symbol, symbols)) && options.unknownToken() != null) {
                if (pendingUnknown >= 0 && !options.fuseUnknown()) {
                    symbols.add(pendingUnknown);
                }
                pendingUnknown = unknownId();
            }
            i = end;
        }
        if (pendingUnknown >= 0) {
            symbols.add(pendingUnknown);
        }
        symbols.mergeAll(merges);
        return symbols;
    }

    private String symbol(String word, int start, int end) {
        String symbol = word.substring(start, end);
        if (options.continuingSubwordPrefix() != null && start > 0) {
            symbol = options.continuingSubwordPrefix() + symbol;
        }
        if (options.endOfWordSuffix() != null && end == word.length()) {
            symbol = symbol + options.endOfWordSuffix();
        }
        return symbol;
    }

    /** Adds the byte tokens of a symbol if the vocabulary has every one (a pending unknown stays pending, as in Hugging Face). */
    private boolean addBytes(String symbol, BpeWord symbols) {
        byte[] bytes = symbol.getBytes(StandardCharsets.UTF_8);
        for (byte b : bytes) {
            if (byteTokens[b & 0xFF] < 0) {
                return false;
            }
        }
        for (byte b : bytes) {
            symbols.add(byteTokens[b & 0xFF]);
        }
        return true;
    }

    private int unknownId() {
        int id = vocabulary.id(options.unknownToken());
        if (id < 0) {
            throw new TokenizerException("the unknown token \"" + options.unknownToken() + "\" is not in the vocabulary");
        }
        return id;
    }
}
