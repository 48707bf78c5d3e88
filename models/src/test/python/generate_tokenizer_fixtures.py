#!/usr/bin/env python3
"""Generate the tokenizer fixtures of ein4j's models module with Hugging Face `tokenizers`.

    python3 models/src/test/python/generate_tokenizer_fixtures.py [--retrain]

Nothing is downloaded: a corpus is built here from word lists (English, French, German, Spanish,
Chinese, Japanese, Korean, emoji, numbers, code), small tokenizers of each family are trained on it,
and every fixture text is run through the library. The library's trainers are not reproducible bit
for bit (ties between equally frequent pairs are broken in hash-map order), so a tokenizer.json
already there is kept and only the expectations are recomputed from it; --retrain trains them all
again (equally valid fixtures with other ids). Output, under
models/src/test/resources/tokenizers/:

  <name>/tokenizer.json   the tokenizer (a few hundred to ~1000 tokens)
  <name>/cases.jsonl      one line per text: text, ids (encode(text).ids), ids_without_special
                          (add_special_tokens=False), tokens, decoded (decode(ids,
                          skip_special_tokens=False)), decoded_skipping_special (True) and stream (the
                          chunks of decoders.DecodeStream, null where a step returns None)
  <name>/decode.jsonl     random id sequences (special ids and ids past the vocabulary included) with
                          decoded, decoded_skipping_special and stream
  <name>/meta.json        vocabulary_size (get_vocab_size()) and special_token_ids
  components.jsonl        single normalizers, pre-tokenizers and decoders on texts and tokens:
                          {"normalizer"|"pre_tokenizer"|"decoder": config, "input": ..., "output": ...}

Without --retrain the output is deterministic.
"""
import argparse
import json
import os
import random

os.environ.setdefault('TOKENIZERS_PARALLELISM', 'false')

import tokenizers  # noqa: E402
from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers  # noqa: E402
from tokenizers.decoders import DecodeStream  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, '..', 'resources', 'tokenizers'))

LLAMA3_PATTERN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
                  r"|\s*[\r\n]+|\s+(?!\S)|\s+")
GPT2_PATTERN = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
GPT4O_PATTERN = (r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
                 r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
                 r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+")
POSSESSIVE_PATTERN = r"[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"

ENGLISH = ('the of and to in is was that for it with as his on be at by had are but from or have an they which one you were '
           'all we her she there would their will when who him been has more if no out do so can what up said about other into '
           'than its time only could new them man some these then two first may any like now my such make over our even most me '
           'state after also made many did must before back see through way where get much go well your know should down work '
           'year because come people just say each those take day good how long own too little use us very great world still '
           'hello token tokenizer language model text word piece merge byte stream generation quick brown fox jumps lazy dog '
           "isn't don't it's we'll you'd they've I'm").split()
FRENCH = 'café crème brûlée à la française naïve résumé élève très être où déjà garçon noël hôtel forêt'.split()
GERMAN = 'Straße übermäßig Größe Ärger Öl Tür schön Mädchen Fußball'.split()
SPANISH = 'niño mañana señor corazón canción educación árbol jalapeño'.split()
CHINESE = '今天 天气 很好 我们 中文 分词 模型 世界 你好 学习 语言'.split()
JAPANESE = '東京 日本 首都 です テスト こんにちは ありがとう'.split()
KOREAN = '안녕하세요 세계 한국어 감사합니다'.split()
EMOJI = ['🙂', '😂', '🌍', '👍', '🎉', '❤️', '🔥', '👍🏽', '🇫🇷']
CODE = ['def f(x):', '    return x**2', 'for (int i = 0; i < n; i++) {', '}', 'x = [1, 2, 3]', 'print("hi")', '# comment',
        'if a == b and c != d:', 'http://example.com/path?q=1&r=2', 'user@example.com']

# The texts every tokenizer is checked on.
TEXTS = [
    '', 'Hello world', 'Hello 🌍  world', 'hello', ' hello', 'hello ', '  hello  world  ',
    'The quick brown fox jumps over the lazy dog.', 'THE QUICK BROWN FOX', 'tHe QuIcK bRoWn',
    "I'm sure it's what they've done, isn't it? We'll see; you'd know.", "don't DON'T Don'T",
    'Café crème brûlée à la française', 'naïve résumé coöperate', 'Straße Übermäßig Größe', 'cafe\u0301 (decomposed)',
    'Ångström ÆØÅ æøå', 'İstanbul ΣΊΣΥΦΟΣ ǅemal', 'niño mañana señor',
    '今天天气很好。', '東京は日本の首都です', '안녕하세요 세계', 'Hello世界mixed中文text', '中文 分词',
    '🙂', '🙂🙂🙂', '👍🏽 thumbs', '👨\u200d👩\u200d👧\u200d👦 family', '🏳️\u200d🌈 flag', '🇫🇷🇩🇪', '❤️ love 🔥',
    'a  b   c    d', '   leading', 'trailing   ', '\tTab\tseparated\t', 'line1\nline2\r\nline3', '\n\n\n', '  ', ' ',
    'a \n b', 'x\u00a0y', 'ideographic\u3000space', 'line\u2028separator',
    '123 4567 89012345', '3.14159 and 2,718', 'year 2024-05-01', '١٢٣ arabic digits', '½ ² ③ Ⅻ',
    '!!!???...', 'Wait... what?!', '(a)[b]{c}<d>', '--==**&&^^%%$$##@@', '"quoted" \'single\' `back`',
    'email@example.com http://x.y/z?q=1&r=2', 'def f(x):\n    return x**2  # square',
    'for (int i = 0; i < n; i++) { sum += i; }',
    '\u0000null \u0007bell', '\u0007bell first', '\u000bab', '\u0007 <s> x', 'replacement \ufffd char', 'private \ue000 use', 'runes ᚠᛇᚻ', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 fraktur',
    'zero\u200bwidth', 'soft\u00adhyphen', 'a' * 120, 'supercalifragilisticexpialidocious',
    '▁already▁has▁metaspace', 'literal <0x41> bytes', 'Ünïcödé 🌍 テスト ١٢٣ test', 'token token token tokenizer tokens',
    '<|endoftext|>', 'text<|endoftext|>more text', '<|endoftext|> starts', 'ends <|endoftext|>', '<|endoftext',
    '<s>Hello</s>', '<s> spaced </s>', '[CLS] hi [SEP]', 'Hello [MASK] world', '  <mask>  masked', 'the<mask>word',
    '<|begin_of_text|>Hi<|eot_id|>', '<|start_header_id|>user<|end_header_id|>\n\nHello<|eot_id|>',
    '[INST] Hi there [/INST]', 'ein4j is here', 'an ein4jword and Tokenizer tokenizer', '<unk> <pad>',
]


def corpus():
    rng = random.Random(20240518)
    lines = []
    for _ in range(3000):
        kind = rng.random()
        if kind < 0.55:
            words = [rng.choice(ENGLISH) for _ in range(rng.randint(4, 14))]
            sentence = ' '.join(words)
            sentence = sentence[0].upper() + sentence[1:] + rng.choice(['.', '.', '!', '?', ',', ';'])
        elif kind < 0.65:
            sentence = ' '.join(rng.choice(FRENCH + GERMAN + SPANISH + ENGLISH) for _ in range(rng.randint(3, 9)))
        elif kind < 0.73:
            sentence = ''.join(rng.choice(CHINESE + JAPANESE) for _ in range(rng.randint(2, 6))) + '。'
        elif kind < 0.76:
            sentence = ' '.join(rng.choice(KOREAN) for _ in range(rng.randint(2, 4)))
        elif kind < 0.83:
            sentence = ' '.join(rng.choice(ENGLISH + EMOJI) for _ in range(rng.randint(3, 8)))
        elif kind < 0.91:
            sentence = '%d %s %d.%d %s-%02d-%02d' % (rng.randint(0, 99999), rng.choice(ENGLISH), rng.randint(0, 99),
                                                    rng.randint(0, 999), rng.randint(1990, 2030), rng.randint(1, 12),
                                                    rng.randint(1, 28))
        else:
            sentence = rng.choice(CODE)
        lines.append(sentence)
    return lines


def train(tokenizer, trainer):
    tokenizer.train_from_iterator(corpus(), trainer=trainer)
    return tokenizer


def gpt2():
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.post_processor = processors.ByteLevel(trim_offsets=True)
    train(tokenizer, trainers.BpeTrainer(vocab_size=700, special_tokens=['<|endoftext|>'],
                                         initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    tokenizer.add_tokens([AddedToken('ein4j', normalized=False)])
    return legacy_merges(tokenizer)


def legacy_merges(tokenizer):
    """The file as older versions wrote it: merges as "a b" strings."""
    document = json.loads(tokenizer.to_str())
    document['model']['merges'] = [' '.join(pair) for pair in document['model']['merges']]
    return Tokenizer.from_str(json.dumps(document))


def roberta():
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    tokenizer.decoder = decoders.ByteLevel()
    train(tokenizer, trainers.BpeTrainer(vocab_size=600, special_tokens=['<s>', '<pad>', '</s>', '<unk>'],
                                         initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    tokenizer.add_special_tokens([AddedToken('<mask>', lstrip=True, normalized=False)])
    tokenizer.post_processor = processors.RobertaProcessing(('</s>', tokenizer.token_to_id('</s>')),
                                                            ('<s>', tokenizer.token_to_id('<s>')))
    return tokenizer


def llama3():
    tokenizer = Tokenizer(models.BPE(ignore_merges=True))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(LLAMA3_PATTERN), behavior='isolated', invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False)])
    tokenizer.decoder = decoders.ByteLevel()
    specials = ['<|begin_of_text|>', '<|end_of_text|>', '<|reserved_special_token_0|>', '<|start_header_id|>',
                '<|end_header_id|>', '<|eot_id|>']
    train(tokenizer, trainers.BpeTrainer(vocab_size=900, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                         show_progress=False))
    tokenizer.add_special_tokens(specials)
    bos = tokenizer.token_to_id('<|begin_of_text|>')
    tokenizer.post_processor = processors.Sequence([
        processors.ByteLevel(trim_offsets=False),
        processors.TemplateProcessing(single='<|begin_of_text|> $A', pair='<|begin_of_text|> $A <|begin_of_text|>:1 $B:1',
                                      special_tokens=[('<|begin_of_text|>', bos)])])
    return tokenizer


def metaspace_bpe():
    """A SentencePiece-like BPE: the Llama 2 vocabulary layout (<unk>, <s>, </s>, 256 byte tokens, merges)."""
    trainer_tokenizer = Tokenizer(models.BPE())
    trainer_tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement='▁', prepend_scheme='always', split=True)
    train(trainer_tokenizer, trainers.BpeTrainer(vocab_size=700, show_progress=False))
    return llama_layout(trainer_tokenizer)


def llama_layout(trained_tokenizer):
    """The vocabulary and merges of a trained BPE laid out as Llama 2's: specials, byte tokens, the rest."""
    trained = json.loads(trained_tokenizer.to_str())['model']
    vocab = {'<unk>': 0, '<s>': 1, '</s>': 2}
    for b in range(256):
        vocab['<0x%02X>' % b] = len(vocab)
    for token, _ in sorted(trained['vocab'].items(), key=lambda item: item[1]):
        vocab.setdefault(token, len(vocab))
    return vocab, trained['merges']


def llama2():
    vocab, merges = metaspace_bpe()
    tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=[tuple(m) for m in merges], unk_token='<unk>', fuse_unk=True,
                                     byte_fallback=True))
    tokenizer.normalizer = normalizers.Sequence([normalizers.Prepend('▁'), normalizers.Replace(' ', '▁')])
    tokenizer.decoder = decoders.Sequence([decoders.Replace('▁', ' '), decoders.ByteFallback(), decoders.Fuse(),
                                           decoders.Strip(' ', 1, 0)])
    tokenizer.add_special_tokens([AddedToken(t, normalized=False) for t in ('<unk>', '<s>', '</s>')])
    tokenizer.post_processor = processors.TemplateProcessing(single='<s> $A', pair='<s> $A $B:1',
                                                             special_tokens=[('<s>', 1)])
    return tokenizer


def mistral():
    vocab, merges = metaspace_bpe()
    tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=[tuple(m) for m in merges], unk_token='<unk>', fuse_unk=True,
                                     byte_fallback=True))
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement='▁', prepend_scheme='first', split=False)
    tokenizer.decoder = decoders.Sequence([decoders.Metaspace(replacement='▁', prepend_scheme='first', split=False),
                                           decoders.ByteFallback(), decoders.Fuse()])
    tokenizer.add_special_tokens([AddedToken(t, normalized=False) for t in ('<unk>', '<s>', '</s>')])
    tokenizer.add_special_tokens([AddedToken('[INST]', normalized=False, rstrip=True),
                                  AddedToken('[/INST]', normalized=False, lstrip=True)])
    tokenizer.post_processor = processors.TemplateProcessing(single='<s> $A </s>', pair='<s> $A $B:1',
                                                             special_tokens=[('<s>', 1), ('</s>', 2)])
    return tokenizer


def bert(lowercase):
    specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']
    tokenizer = Tokenizer(models.WordPiece(unk_token='[UNK]', max_input_chars_per_word=100))
    tokenizer.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=True, strip_accents=None,
                                                      lowercase=lowercase)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.decoder = decoders.WordPiece(prefix='##', cleanup=True)
    train(tokenizer, trainers.WordPieceTrainer(vocab_size=800, special_tokens=specials,
                                               show_progress=False))
    cls, sep = tokenizer.token_to_id('[CLS]'), tokenizer.token_to_id('[SEP]')
    if lowercase:
        tokenizer.post_processor = processors.BertProcessing(('[SEP]', sep), ('[CLS]', cls))
    else:
        tokenizer.post_processor = processors.TemplateProcessing(single='[CLS] $A [SEP]', pair='[CLS] $A [SEP] $B:1 [SEP]:1',
                                                                 special_tokens=[('[CLS]', cls), ('[SEP]', sep)])
        tokenizer.add_tokens([AddedToken('ein4j', normalized=True),
                              AddedToken('Tokenizer', single_word=True, normalized=True)])
    return tokenizer


def wordlevel():
    """WordLevel behind a chain of normalizers and pre-tokenizers, no decoder, truncation and padding."""
    tokenizer = Tokenizer(models.WordLevel(unk_token='<unk>'))
    tokenizer.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Replace(Regex(r'\s+'), ' '),
                                                 normalizers.Lowercase(), normalizers.Strip()])
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(), pre_tokenizers.Digits(individual_digits=True),
                                                       pre_tokenizers.Punctuation(behavior='contiguous')])
    train(tokenizer, trainers.WordLevelTrainer(vocab_size=500, special_tokens=['<unk>', '<pad>'], show_progress=False))
    tokenizer.enable_truncation(24, stride=2, strategy='longest_first', direction='right')
    tokenizer.enable_padding(direction='left', pad_id=1, pad_token='<pad>', pad_to_multiple_of=8)
    return tokenizer


def bpe_suffix():
    """Character BPE with an end-of-word suffix (as CLIP or the original subword-nmt), BPEDecoder."""
    tokenizer = Tokenizer(models.BPE(unk_token='<unk>', end_of_word_suffix='</w>'))
    tokenizer.normalizer = normalizers.Sequence([normalizers.NFD(), normalizers.StripAccents(), normalizers.Lowercase()])
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(r"'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"), behavior='removed',
                             invert=True)])
    tokenizer.decoder = decoders.BPEDecoder(suffix='</w>')
    train(tokenizer, trainers.BpeTrainer(vocab_size=600, special_tokens=['<unk>', '<|startoftext|>', '<|endoftext|>'],
                                         end_of_word_suffix='</w>', show_progress=False))
    start, end = tokenizer.token_to_id('<|startoftext|>'), tokenizer.token_to_id('<|endoftext|>')
    tokenizer.post_processor = processors.TemplateProcessing(single='<|startoftext|> $A <|endoftext|>',
                                                             pair='<|startoftext|> $A <|endoftext|> $B:1',
                                                             special_tokens=[('<|startoftext|>', start), ('<|endoftext|>', end)])
    return tokenizer


def bpe_prefix():
    """BPE with a continuing-subword prefix, WhitespaceSplit, the WordPiece decoder."""
    tokenizer = Tokenizer(models.BPE(unk_token='[UNK]', continuing_subword_prefix='##'))
    tokenizer.normalizer = normalizers.Sequence([normalizers.NFC(), normalizers.Strip(left=True, right=False)])
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation()])
    tokenizer.decoder = decoders.WordPiece(prefix='##', cleanup=False)
    train(tokenizer, trainers.BpeTrainer(vocab_size=700, special_tokens=['[UNK]', '[CLS]', '[SEP]'],
                                         continuing_subword_prefix='##', show_progress=False))
    return tokenizer


def metaspace_after_normalizers():
    """Metaspace "first" behind normalizers that delete leading characters: the piece then no longer
    begins at offset 0 of the input, so nothing is prepended (as the library does)."""
    tokenizer = Tokenizer(models.BPE(unk_token='<unk>'))
    tokenizer.normalizer = normalizers.Sequence([normalizers.Nmt(), normalizers.Strip(left=True, right=False)])
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme='first', split=True)
    tokenizer.decoder = decoders.Metaspace(prepend_scheme='first')
    train(tokenizer, trainers.BpeTrainer(vocab_size=500, special_tokens=['<unk>', '<s>'], show_progress=False))
    return tokenizer


FIXTURES = {
    'gpt2-byte-level': gpt2,
    'roberta-byte-level': roberta,
    'llama3-split-byte-level': llama3,
    'llama2-metaspace-byte-fallback': llama2,
    'mistral-metaspace-first': mistral,
    'bert-wordpiece-uncased': lambda: bert(True),
    'bert-wordpiece-cased': lambda: bert(False),
    'wordlevel-normalizers': wordlevel,
    'bpe-end-of-word-suffix': bpe_suffix,
    'bpe-continuing-prefix': bpe_prefix,
    'metaspace-first-after-normalizers': metaspace_after_normalizers,
}

CONFIGS = {
    # tokenizer_config.json next to tokenizer.json, for Tokenizer.load's bos/eos
    'llama3-split-byte-level': {'bos_token': '<|begin_of_text|>', 'eos_token': '<|eot_id|>'},
    'mistral-metaspace-first': {'bos_token': {'content': '<s>', 'lstrip': False}, 'eos_token': '</s>'},
}


def stream(tokenizer, ids, skip_special_tokens=False):
    decode_stream = DecodeStream(skip_special_tokens=skip_special_tokens)
    try:
        return [decode_stream.step(tokenizer, i) for i in ids], None
    except Exception as error:  # the library's InvalidPrefix
        return None, str(error)


def case(tokenizer, text):
    encoding = tokenizer.encode(text)
    ids = encoding.ids
    chunks, error = stream(tokenizer, ids)
    out = {'text': text, 'ids': ids, 'ids_without_special': tokenizer.encode(text, add_special_tokens=False).ids,
           'tokens': encoding.tokens, 'decoded': tokenizer.decode(ids, skip_special_tokens=False),
           'decoded_skipping_special': tokenizer.decode(ids, skip_special_tokens=True), 'stream': chunks}
    if error:
        out['stream_error'] = error
    return out


def decode_case(tokenizer, ids):
    chunks, error = stream(tokenizer, ids)
    out = {'ids': ids, 'decoded': tokenizer.decode(ids, skip_special_tokens=False),
           'decoded_skipping_special': tokenizer.decode(ids, skip_special_tokens=True), 'stream': chunks}
    if error:
        out['stream_error'] = error
    return out


def random_ids(tokenizer, rng):
    size = tokenizer.get_vocab_size()
    specials = [i for i, t in tokenizer.get_added_tokens_decoder().items() if t.special]
    sequences = []
    for n in range(24):
        length = rng.randint(1, 12)
        ids = [rng.randrange(size + 3) for _ in range(length)]  # a few past the vocabulary
        if specials and n % 3 == 0:
            ids.insert(rng.randint(0, length), rng.choice(specials))
        sequences.append(ids)
    return sequences


def write_jsonl(path, rows):
    with open(path, 'w', encoding='utf-8', newline='\n') as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + '\n')


def write_fixture(name, build, retrain):
    directory = os.path.join(OUT, name)
    os.makedirs(directory, exist_ok=True)
    file = os.path.join(directory, 'tokenizer.json')
    if retrain or not os.path.isfile(file):
        build().save(file, pretty=False)
    tokenizer = Tokenizer.from_file(file)  # exactly what the file says
    write_jsonl(os.path.join(directory, 'cases.jsonl'), [case(tokenizer, text) for text in TEXTS])
    rng = random.Random(name)
    write_jsonl(os.path.join(directory, 'decode.jsonl'), [decode_case(tokenizer, ids) for ids in random_ids(tokenizer, rng)])
    specials = sorted(i for i, t in tokenizer.get_added_tokens_decoder().items() if t.special)
    with open(os.path.join(directory, 'meta.json'), 'w', encoding='utf-8') as out:
        json.dump({'tokenizers_version': tokenizers.__version__, 'vocabulary_size': tokenizer.get_vocab_size(),
                   'special_token_ids': specials}, out, indent=1)
        out.write('\n')
    if name in CONFIGS:
        with open(os.path.join(directory, 'tokenizer_config.json'), 'w', encoding='utf-8') as out:
            json.dump(CONFIGS[name], out, indent=1)
            out.write('\n')


def component_json(kind, component):
    holder = Tokenizer(models.BPE())
    setattr(holder, kind, component)
    return json.loads(holder.to_str())[kind]


COMPONENT_TEXTS = ['Hello World!', "HELLO World's CamelCase x/y  \n\n  z  ", 'tail spaces   \nnext   ', '  Héllo,  wörld  ', 'café\u0301 ﬁne ① ＡＢＣ', 'İΣΑ ǅ ß', '今天 天气', "it's 2024-05-01: 3.14",
                   '👍🏽 👨\u200d👩\u200d👧', 'a\tb\nc\r\nd\u00a0e\u3000f', '\u0000\u0007x\u200by\ufffdz\u2581', '--==!!??..',
                   'the-final--countdown', '▁pre▁spaced', '   ', 'x', "don't stop", 'ᚠᛇᚻ ١٢٣ ½', 'aaaa bbbb']

NORMALIZERS = [normalizers.NFC(), normalizers.NFD(), normalizers.NFKC(), normalizers.NFKD(), normalizers.Lowercase(),
               normalizers.Strip(), normalizers.Strip(left=True, right=False), normalizers.Strip(left=False, right=True),
               normalizers.StripAccents(), normalizers.Nmt(), normalizers.ByteLevel(), normalizers.Replace('  ', ' '),
               normalizers.Replace(Regex(r'\s+'), ' '), normalizers.Replace(Regex('[0-9]'), '#'), normalizers.Replace('', '|'),
               normalizers.Prepend('▁'),
               normalizers.BertNormalizer(), normalizers.BertNormalizer(lowercase=False),
               normalizers.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False),
               normalizers.BertNormalizer(strip_accents=False, lowercase=True),
               normalizers.Sequence([normalizers.NFD(), normalizers.StripAccents(), normalizers.Lowercase()]),
               normalizers.Sequence([normalizers.Prepend('▁'), normalizers.Replace(' ', '▁')])]

BEHAVIORS = ['removed', 'isolated', 'merged_with_previous', 'merged_with_next', 'contiguous']
PRE_TOKENIZERS = (
    [pre_tokenizers.Whitespace(), pre_tokenizers.WhitespaceSplit(), pre_tokenizers.BertPreTokenizer(),
     pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.Digits(individual_digits=False),
     pre_tokenizers.CharDelimiterSplit('-'), pre_tokenizers.FixedLength(4),
     pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Metaspace(prepend_scheme='first')]),
     pre_tokenizers.Sequence([pre_tokenizers.Punctuation(), pre_tokenizers.Digits()])]
    + [pre_tokenizers.Punctuation(behavior=b) for b in BEHAVIORS]
    + [pre_tokenizers.Split('-', behavior=b, invert=i) for b in BEHAVIORS for i in (False, True)]
    + [pre_tokenizers.Split(Regex(p), behavior=b) for p in (GPT2_PATTERN, LLAMA3_PATTERN, GPT4O_PATTERN, POSSESSIVE_PATTERN, r'\d+|\s') for b in ('isolated', 'removed')]
    + [pre_tokenizers.Split(Regex(r'[[:punct:]]+|\h+'), behavior='isolated'),
       pre_tokenizers.Split(Regex(r'^\w|\w$|(?m:.\n.)'), behavior='isolated')]
    + [pre_tokenizers.Metaspace(prepend_scheme=s, split=p) for s in ('always', 'first', 'never') for p in (True, False)]
    + [pre_tokenizers.ByteLevel(add_prefix_space=a, use_regex=r) for a in (True, False) for r in (True, False)])

DECODER_TOKENS = [['▁Hello', '▁world', '!'], ['Hello', '▁▁wo', 'rld▁'], ['<0xE2>', '<0x82>', '<0xAC>', '▁euro'],
                  ['<0x41>', '<0xE2>', '<0x82>', 'y', '<0x+A>', '<0xzz>'], ['ĠHello', 'Ġw', 'orld', 'Ã©', 'ðŁ'],
                  ['hello', '##ing', ',', 'do', "##n't", '.', "'", 's'], ['hel', 'lo</w>', 'wor', 'ld</w>'],
                  ['<pad>', 'h', 'h', 'e', '|', '<pad>', 'l', 'l', '<pad>', 'l', 'o', '|', 'w'], ['  xx  ', 'xax', 'xx'], []]
DECODERS = [decoders.ByteLevel(), decoders.Metaspace(), decoders.Metaspace(prepend_scheme='never'),
            decoders.WordPiece(), decoders.WordPiece(cleanup=False), decoders.ByteFallback(), decoders.Fuse(),
            decoders.Strip(' ', 1, 0), decoders.Strip('x', 1, 1), decoders.Replace('▁', ' '), decoders.Replace(Regex('[lo]+'), '_'),
            decoders.BPEDecoder(), decoders.CTC(), decoders.CTC(cleanup=False),
            decoders.Sequence([decoders.Replace('▁', ' '), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(' ', 1, 0)])]


def components():
    rows = []
    for normalizer in NORMALIZERS:
        config = component_json('normalizer', normalizer)
        rows += [{'normalizer': config, 'input': t, 'output': normalizer.normalize_str(t)} for t in COMPONENT_TEXTS]
    for pre_tokenizer in PRE_TOKENIZERS:
        config = component_json('pre_tokenizer', pre_tokenizer)
        rows += [{'pre_tokenizer': config, 'input': t, 'output': [w for w, _ in pre_tokenizer.pre_tokenize_str(t)]}
                 for t in COMPONENT_TEXTS]
    for decoder in DECODERS:
        config = component_json('decoder', decoder)
        for tokens in DECODER_TOKENS:
            try:
                rows.append({'decoder': config, 'input': tokens, 'output': decoder.decode(tokens)})
            except BaseException:  # noqa: B036 - the Strip decoder panics on tokens shorter than its cut
                pass
    write_jsonl(os.path.join(OUT, 'components.jsonl'), rows)
    return len(rows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--retrain', action='store_true', help='train the tokenizers again instead of keeping tokenizer.json')
    args = parser.parse_args()
    for name, build in FIXTURES.items():
        write_fixture(name, build, args.retrain)
        print('wrote', name)
    print('wrote components.jsonl:', components(), 'rows')


if __name__ == '__main__':
    main()
