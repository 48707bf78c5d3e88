package dev.ein4j.models.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** What a generation loop uses besides encode and decode: token lookups, special ids, streaming. */
class TokenizerApiTest {

    private static Tokenizer fixture(String name) {
        return Tokenizer.load(Fixtures.root().resolve(name));
    }

    @Test
    void tokensAndIdsBothWays() {
        Tokenizer tokenizer = fixture("bert-wordpiece-uncased");
        int hello = tokenizer.tokenToId("[CLS]").orElseThrow();
        assertThat(tokenizer.idToToken(hello)).contains("[CLS]");
        assertThat(tokenizer.tokenToId("no such token")).isEmpty();
        assertThat(tokenizer.idToToken(1_000_000)).isEmpty();
        assertThat(tokenizer.idToToken(-5)).isEmpty();
        for (int id = 0; id < tokenizer.vocabularySize(); id++) {
            Optional<String> token = tokenizer.idToToken(id);
            assertThat(token).as("id %d", id).isPresent();
            assertThat(tokenizer.tokenToId(token.get())).as(token.get()).isEqualTo(OptionalInt.of(id));
        }
    }

    @Test
    void beginningAndEndOfSequence() {
        Tokenizer bert = fixture("bert-wordpiece-uncased"); // from BertProcessing
        assertThat(bert.beginningOfSequenceId()).isEqualTo(bert.tokenToId("[CLS]"));
        assertThat(bert.endOfSequenceId()).isEqualTo(bert.tokenToId("[SEP]"));
        Tokenizer llama2 = fixture("llama2-metaspace-byte-fallback"); // "<s> $A", then the name </s>
        assertThat(llama2.beginningOfSequenceId()).hasValue(1);
        assertThat(llama2.endOfSequenceId()).hasValue(2);
        Tokenizer gpt2 = fixture("gpt2-byte-level"); // no template: the name <|endoftext|> for both
        assertThat(gpt2.beginningOfSequenceId()).isEqualTo(gpt2.tokenToId("<|endoftext|>"));
        assertThat(gpt2.endOfSequenceId()).isEqualTo(gpt2.tokenToId("<|endoftext|>"));
        Path llama3 = Fixtures.root().resolve("llama3-split-byte-level");
        Tokenizer withConfig = Tokenizer.load(llama3); // tokenizer_config.json names <|eot_id|>
        assertThat(withConfig.beginningOfSequenceId()).isEqualTo(withConfig.tokenToId("<|begin_of_text|>"));
        assertThat(withConfig.endOfSequenceId()).isEqualTo(withConfig.tokenToId("<|eot_id|>"));
        Tokenizer fileOnly = Tokenizer.fromFile(llama3.resolve("tokenizer.json"));
        assertThat(fileOnly.endOfSequenceId()).isEqualTo(fileOnly.tokenToId("<|end_of_text|>"));
        Tokenizer none = Tokenizer.fromJson("{\"model\": {\"type\": \"WordLevel\", \"vocab\": {\"a\": 0}, \"unk_token\": \"a\"}}", "t.json");
        assertThat(none.beginningOfSequenceId()).isEmpty();
        assertThat(none.endOfSequenceId()).isEmpty();
    }

    @Test
    void specialTokens() {
        Tokenizer llama3 = fixture("llama3-split-byte-level");
        int eot = llama3.tokenToId("<|eot_id|>").orElseThrow();
        assertThat(llama3.isSpecialToken(eot)).isTrue();
        assertThat(llama3.isSpecialToken(llama3.encode("hello", false)[0])).isFalse();
        assertThat(llama3.specialTokenIds()).contains(eot).isSorted();
        int[] ids = llama3.encode("Hi<|eot_id|>");
        assertThat(llama3.decode(ids, false)).isEqualTo("<|begin_of_text|>Hi<|eot_id|>");
        assertThat(llama3.decode(ids, true)).isEqualTo("Hi");
    }

    @Test
    void streamingPrintsAnEmojiOnlyWhenItsLastByteArrives() {
        Tokenizer llama2 = fixture("llama2-metaspace-byte-fallback"); // 🌍 is four <0xNN> tokens there
        int[] ids = llama2.encode("a 🌍 b", false);
        StreamingDecoder stream = llama2.streamingDecoder(false);
        List<String> chunks = new ArrayList<>();
        for (int id : ids) {
            chunks.add(stream.next(id));
        }
        assertThat(chunks).contains("🌍");
        assertThat(chunks).noneMatch(chunk -> chunk.contains("\uFFFD"));
        assertThat(String.join("", chunks) + stream.finish()).isEqualTo(llama2.decode(ids, false)).isEqualTo("a 🌍 b");
    }

    @Test
    void finishReturnsAnIncompleteCharacterAsReplacement() {
        Tokenizer gpt2 = fixture("gpt2-byte-level");
        int[] ids = gpt2.encode("🌍", false);
        assertThat(ids.length).isGreaterThan(1);
        StreamingDecoder stream = gpt2.streamingDecoder(false);
        assertThat(stream.next(ids[0])).isEmpty();
        assertThat(stream.finish()).isEqualTo(gpt2.decode(new int[] {ids[0]}, false)).contains("\uFFFD");
        assertThat(stream.finish()).isEmpty();
    }
}
