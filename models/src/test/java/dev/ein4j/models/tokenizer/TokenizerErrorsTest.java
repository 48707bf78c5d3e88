package dev.ein4j.models.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Malformed or unsupported tokenizer files, and input a tokenizer cannot take: each a clear error. */
class TokenizerErrorsTest {

    private static final String MODEL = "\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0, \"b\": 1, \"ab\": 2}, \"merges\": [\"a b\"]}";

    @TempDir
    Path folder;

    private static TokenizerException failure(String json) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> Tokenizer.fromJson(json, "t.json"));
        assertThat(thrown).isInstanceOf(TokenizerException.class);
        return (TokenizerException) thrown;
    }

    @Test
    void anUnknownComponentTypeNamesItsPathAndTheSupportedTypes() {
        assertThat(failure("{" + MODEL + ", \"pre_tokenizer\": {\"type\": \"Sequence\", \"pretokenizers\": ["
                + "{\"type\": \"Whitespace\"}, {\"type\": \"Foo\"}]}}").getMessage())
                .isEqualTo("t.json: pre_tokenizer.pretokenizers[1].type \"Foo\" is not supported (supported: BertPreTokenizer, "
                        + "ByteLevel, CharDelimiterSplit, Digits, FixedLength, Metaspace, Punctuation, Sequence, Split, Whitespace, "
                        + "WhitespaceSplit)");
        assertThat(failure("{" + MODEL + ", \"normalizer\": {\"type\": \"Precompiled\", \"precompiled_charsmap\": \"\"}}")
                .getMessage()).startsWith("t.json: normalizer.type \"Precompiled\" is not supported (supported: BertNormalizer,");
        assertThat(failure("{" + MODEL + ", \"decoder\": {\"type\": \"Sequence\", \"decoders\": [{\"type\": \"Bar\"}]}}").getMessage())
                .startsWith("t.json: decoder.decoders[0].type \"Bar\" is not supported (supported: BPEDecoder,");
        assertThat(failure("{" + MODEL + ", \"post_processor\": {\"type\": \"Baz\"}}").getMessage())
                .startsWith("t.json: post_processor.type \"Baz\" is not supported (supported: BertProcessing,");
        assertThat(failure("{\"model\": {\"type\": \"Unigram\", \"unk_id\": 0, \"vocab\": [[\"<unk>\", 0.0]]}}").getMessage())
                .isEqualTo("t.json: model.type \"Unigram\" is not supported (supported: BPE, WordLevel, WordPiece)");
        assertThat(failure("{\"model\": {\"vocab\": [[\"<unk>\", 0.0]]}}").getMessage())
                .contains("model.type \"Unigram\" is not supported");
        assertThat(failure("{" + MODEL + ", \"pre_tokenizer\": {\"pretokenizers\": []}}").getMessage())
                .isEqualTo("t.json: pre_tokenizer has no \"type\"");
    }

    @Test
    void aMissingModelIsNamed() {
        assertThat(failure("{\"version\": \"1.0\", \"normalizer\": null}").getMessage()).isEqualTo("t.json: the document has no \"model\"");
        assertThat(failure("{\"model\": null}").getMessage()).isEqualTo("t.json: the document has no \"model\"");
        assertThat(failure("{\"model\": {\"type\": \"BPE\", \"merges\": []}}").getMessage()).isEqualTo("t.json: model has no \"vocab\"");
    }

    @Test
    void badMergesAreNamedWithTheirIndex() {
        String vocab = "\"vocab\": {\"a\": 0, \"b\": 1, \"ab\": 2, \"c\": 3}";
        assertThat(failure("{\"model\": {\"type\": \"BPE\", " + vocab + ", \"merges\": [\"a b\", \"a b c\"]}}").getMessage())
                .isEqualTo("t.json: model.merges[1] \"a b c\" is not two tokens separated by one space");
        assertThat(failure("{\"model\": {\"type\": \"BPE\", " + vocab + ", \"merges\": [\"ab\"]}}").getMessage())
                .isEqualTo("t.json: model.merges[0] \"ab\" is not two tokens separated by one space");
        assertThat(failure("{\"model\": {\"type\": \"BPE\", " + vocab + ", \"merges\": [\"a x\"]}}").getMessage())
                .isEqualTo("t.json: model.merges[0] needs the token \"x\", which is not in the vocabulary");
        assertThat(failure("{\"model\": {\"type\": \"BPE\", " + vocab + ", \"merges\": [\"b c\"]}}").getMessage())
                .isEqualTo("t.json: model.merges[0] needs the token \"bc\", which is not in the vocabulary");
        assertThat(failure("{\"model\": {\"type\": \"BPE\", " + vocab + ", \"merges\": [[\"a\", \"b\"], \"a b\"]}}").getMessage())
                .isEqualTo("t.json: model.merges[1] mixes the two forms of merges (\"a b\" strings and [\"a\", \"b\"] pairs)");
        assertThat(failure("{\"model\": {\"type\": \"BPE\", " + vocab + ", \"merges\": [[\"a\", \"b\", \"c\"]]}}").getMessage())
                .isEqualTo("t.json: model.merges[0] has 3 tokens, not a pair");
        assertThat(failure("{\"model\": {\"type\": \"BPE\", " + vocab + ", \"merges\": \"a b\"}}").getMessage())
                .isEqualTo("t.json: model.merges is \"a b\", not an array");
    }

    @Test
    void badValuesNameTheirPath() {
        assertThat(failure("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": -1}, \"merges\": []}}").getMessage())
                .isEqualTo("t.json: model.vocab[\"a\"] is -1, not a non-negative integer below 2^31");
        assertThat(failure("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0.5}, \"merges\": []}}").getMessage())
                .isEqualTo("t.json: model.vocab[\"a\"] is 0.5, not a non-negative integer below 2^31");
        assertThat(failure("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 1.0}, \"merges\": []}}").getMessage())
                .isEqualTo("t.json: model.vocab[\"a\"] is 1.0, not a non-negative integer below 2^31");
        assertThat(failure("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 3000000000}, \"merges\": []}}").getMessage())
                .isEqualTo("t.json: model.vocab[\"a\"] is 3000000000, not a non-negative integer below 2^31");
        assertThat(failure("{\"model\": {\"type\": \"BPE\", \"vocab\": {}, \"merges\": [], \"dropout\": 1.5}}").getMessage())
                .isEqualTo("t.json: model.dropout is 1.5, not between 0 and 1");
        assertThat(failure("{" + MODEL + ", \"normalizer\": {\"type\": \"BertNormalizer\", \"clean_text\": \"yes\", "
                + "\"handle_chinese_chars\": true, \"lowercase\": true}}").getMessage())
                .isEqualTo("t.json: normalizer.clean_text is \"yes\", not true or false");
        assertThat(failure("{" + MODEL + ", \"pre_tokenizer\": {\"type\": \"Split\", \"pattern\": {\"Regex\": \"(a\"}, "
                + "\"behavior\": \"Isolated\", \"invert\": false}}").getMessage())
                .startsWith("t.json: pre_tokenizer.pattern.Regex \"(a\" is not a regular expression this reader can use: ");
        assertThat(failure("{" + MODEL + ", \"pre_tokenizer\": {\"type\": \"Split\", \"pattern\": {\"String\": \"a\"}, "
                + "\"behavior\": \"Sideways\", \"invert\": false}}").getMessage())
                .startsWith("t.json: pre_tokenizer.behavior is \"Sideways\", not one of Removed, Isolated,");
        assertThat(failure("{" + MODEL + ", \"pre_tokenizer\": {\"type\": \"Metaspace\", \"replacement\": \"ab\"}}").getMessage())
                .isEqualTo("t.json: pre_tokenizer.replacement is \"ab\", not a single character");
        assertThat(failure("{" + MODEL + ", \"post_processor\": {\"type\": \"TemplateProcessing\", \"single\": "
                + "[{\"SpecialToken\": {\"id\": \"[CLS]\", \"type_id\": 0}}, {\"Sequence\": {\"id\": \"A\", \"type_id\": 0}}], "
                + "\"pair\": [], \"special_tokens\": {}}}").getMessage())
                .isEqualTo("t.json: post_processor.single[0] names the special token \"[CLS]\", which special_tokens lacks");
        assertThat(failure("{" + MODEL + ", \"added_tokens\": [{\"id\": 3, \"content\": \"<x>\"}]}").getMessage())
                .isEqualTo("t.json: added_tokens[0] has no \"single_word\"");
    }

    @Test
    void malformedJsonIsReportedAsSuch() {
        assertThat(failure("{" + MODEL).getMessage()).startsWith("t.json: not valid JSON: ");
        assertThat(failure("{" + MODEL + "} trailing").getMessage()).startsWith("t.json: not valid JSON: ");
        assertThat(failure("{'model': 1}").getMessage()).startsWith("t.json: not valid JSON: ");
        assertThat(failure("[1, 2]").getMessage()).isEqualTo("t.json: the document is not a JSON object");
        assertThat(failure("{\"model\": {\"type\": \"WordLevel\", \"vocab\": {\"a\": 0}, \"unk_token\": \"\\ud800\"}}").getMessage())
                .isEqualTo("t.json: model.unk_token holds an unpaired surrogate, which is not Unicode text");
        assertThat(failure("{\"model\": {\"type\": \"WordLevel\", \"vocab\": {\"\\ud800\": 0}, \"unk_token\": \"x\"}}").getMessage())
                .isEqualTo("t.json: model.vocab[\"\\ud800\"] holds an unpaired surrogate, which is not Unicode text");
    }

    @Test
    void filesThatAreMissingOrNotUtf8() throws IOException {
        assertThatThrownBy(() -> Tokenizer.fromFile(folder.resolve("absent.json"))).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("absent.json");
        assertThatThrownBy(() -> Tokenizer.load(folder)).isInstanceOf(TokenizerException.class)
                .hasMessage(folder + ": the folder has no tokenizer.json");
        Path latin1 = Files.write(folder.resolve("latin1.json"), new byte[] {'{', '"', (byte) 0xE9, '"', ':', '1', '}'});
        assertThatThrownBy(() -> Tokenizer.fromFile(latin1)).isInstanceOf(TokenizerException.class)
                .hasMessage(latin1 + ": the file is not UTF-8 text");
    }

    @Test
    void inputTheTokenizerCannotTake() {
        Tokenizer tokenizer = Tokenizer.fromJson("{" + MODEL + "}", "t.json");
        assertThatThrownBy(() -> tokenizer.encode("a\ud800b")).isInstanceOf(TokenizerException.class)
                .hasMessage("the text has an unpaired surrogate at index 1, so it is not Unicode text");
        assertThatThrownBy(() -> tokenizer.decode(new int[] {2, -1}, false)).isInstanceOf(TokenizerException.class)
                .hasMessage("id -1 at index 1 is negative");
        Tokenizer missingUnknown = Tokenizer.fromJson("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}, \"merges\": [], "
                + "\"unk_token\": \"<unk>\"}}", "t.json");
        assertThat(missingUnknown.encode("aa")).containsExactly(0, 0);
        assertThatThrownBy(() -> missingUnknown.encode("ax")).isInstanceOf(TokenizerException.class)
                .hasMessage("the unknown token \"<unk>\" is not in the vocabulary");
    }
}
