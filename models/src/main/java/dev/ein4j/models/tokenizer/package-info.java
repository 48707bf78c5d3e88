/**
 * Hugging Face tokenizers read from {@code tokenizer.json}, in pure Java, with the ids and text of the
 * Python {@code tokenizers} library (0.23): {@link dev.ein4j.models.tokenizer.Tokenizer} to encode and
 * decode, {@link dev.ein4j.models.tokenizer.StreamingDecoder} for text generation.
 *
 * <pre>{@code
 * Tokenizer tokenizer = Tokenizer.load(Path.of("llama-3"));
 * int[] ids = tokenizer.encode("Hello 🌍  world");
 * String text = tokenizer.decode(ids, false);
 * }</pre>
 *
 * <p>Supported components (anything else is a {@link dev.ein4j.models.tokenizer.TokenizerException}
 * naming the file and JSON path):
 * <ul>
 *   <li>models: BPE (merges as "a b" strings or [a, b] pairs, byte_fallback, fuse_unk, ignore_merges,
 *       continuing_subword_prefix, end_of_word_suffix; dropout is accepted and not applied),
 *       WordPiece, WordLevel;</li>
 *   <li>normalizers: BertNormalizer, NFC, NFD, NFKC, NFKD, Lowercase, Strip, StripAccents, Replace,
 *       Prepend, Nmt, ByteLevel, Sequence;</li>
 *   <li>pre-tokenizers: ByteLevel, Metaspace, Split, Whitespace, WhitespaceSplit, BertPreTokenizer,
 *       Punctuation, Digits, CharDelimiterSplit, FixedLength, Sequence;</li>
 *   <li>post-processors: TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel, Sequence
 *       (single sequences; pairs are not encoded);</li>
 *   <li>decoders: ByteLevel, Metaspace, WordPiece, ByteFallback, Fuse, Strip, Replace, BPEDecoder,
 *       CTC, Sequence;</li>
 *   <li>added tokens (special or not, single_word, lstrip, rstrip, normalized), truncation and
 *       padding of a single sequence.</li>
 * </ul>
 * Not supported: the Unigram model, the Precompiled normalizer (SentencePiece's character maps) and
 * the UnicodeScripts pre-tokenizer.
 *
 * <p>Character classes: the library's own tables for punctuation, numerals, word characters,
 * controls and marks are measured from it ({@code character-classes.txt}); Unicode normalization,
 * case mapping and the character properties of regular expressions are Java 17's (Unicode 13), so
 * characters assigned in Unicode 14 to 16 may normalize or split differently.
 */
package dev.ein4j.models.tokenizer;
