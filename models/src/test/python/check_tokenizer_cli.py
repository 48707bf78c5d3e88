#!/usr/bin/env python3
"""Differential check of `models tokenize` against Hugging Face `tokenizers` on fresh tokenizers.

    mvn -B -q -pl examples -am package -DskipTests
    python3 models/src/test/python/check_tokenizer_cli.py [--rounds N] [--texts N] [--seed S] [--keep DIR]

Each round trains tokenizers of every family (GPT-2 and RoBERTa byte-level BPE, Llama 3 split regex,
Llama 2 and Mistral metaspace BPE with byte fallback, BERT WordPiece, and tokenizers with
randomly chosen normalizers, pre-tokenizers and decoders) on a corpus drawn at random from many
scripts, writes random texts (scripts mixed, emoji sequences, white space runs, controls, the
tokenizers' special tokens), runs the examples jar on them and compares ids and decoded text with
the library. Prints every mismatch and exits 1 if there was one. Nothing here is a unit test:
it is the held-out style check, run by hand.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

os.environ.setdefault('TOKENIZERS_PARALLELISM', 'false')

from tokenizers import AddedToken, Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate_tokenizer_fixtures import llama_layout  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
JAR = os.path.normpath(os.path.join(HERE, '..', '..', '..', '..', 'examples', 'target', 'ein4j-examples.jar'))
LLAMA3 = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
          r"|\s+(?!\S)|\s+")
QWEN = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
GPT4O = (r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
         r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
         r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+")

POOLS = {
    'ascii': 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
    'digits': '0123456789',
    'punct': '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
    'space': '     \t\n\r\u00a0\u3000\u2009\u200b\u2028\x0b\x0c\x85',
    'latin': 'àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿßœŒÀÉÎÕÜłŁđĐğşİıǅǈ',
    'combining': '\u0300\u0301\u0302\u0303\u0308\u030a\u0327\u0331\u20dd',
    'greek': 'αβγδεζηθικλμνξοπρσςτυφχψωΑΒΓΔΣΩάέήίόύώ',
    'cyrillic': 'абвгдежзийклмнопрстуфхцчшщъыьэюяАБВГДЖЯёЁ',
    'cjk': '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坐集编宝谈府拉黑且随格尽剑讲布杀微怕母调局根曾准团段终乐切级克精哪官示冷域',
    'kana': 'あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲンー',
    'hangul': '가나다라마바사아자차카타파하한국어안녕세계감사합니다\u1100\u1161\u11a8',
    'arabic': 'ابتثجحخدذرزسشصضطظعغفقكلمنهوي١٢٣٤٥',
    'devanagari': 'अआइईउऊएऐओऔकखगघचछजझटठडढणतथदधनपफबभमयरलवशषसह्ािीुूेैोौं',
    'thai': 'กขคงจฉชซญดตถทธนบปผพฟภมยรลวศษสหอฮะาิีึืุูเแโใไ่้๊๋',
    'emoji': ['🙂', '😂', '🌍', '👍', '👍🏽', '👍🏿', '❤️', '❤', '🔥', '👨\u200d👩\u200d👧\u200d👦', '🏳️\u200d🌈', '🇫🇷', '🇯🇵',
              '1️⃣', '#️⃣', '🧑\u200d💻', '👩🏾\u200d🚀', '✊🏻', '☺️', '🫠', '🥲', '🦄'],
    'astral': '𝔘𝔫𝔦𝔠𝔬𝔡𝔢𝐀𝐁𝐂𝟙𝟚𝟛𐍈𐌰𓀀𠀀𠀁',
    'odd': '\x00\x01\x07\x1b\x7f\ufffd\ue000\uf8ff\u0378\U000e0001\u00ad\ufeff\u200d\u2060▁½²③Ⅻ①＃ＡＢＣｱｲ',
}
WORD_POOLS = ['ascii', 'ascii', 'ascii', 'latin', 'greek', 'cyrillic', 'cjk', 'kana', 'hangul', 'arabic', 'devanagari', 'thai']


def random_word(rng, pool):
    chars = POOLS[pool]
    length = rng.randint(1, 9) if pool not in ('cjk', 'kana') else rng.randint(1, 4)
    word = ''.join(rng.choice(chars) for _ in range(length))
    if pool == 'latin' and rng.random() < 0.3:
        word += rng.choice(POOLS['combining'])
    if pool == 'ascii' and rng.random() < 0.2:
        word = word.capitalize()
    return word


def corpus(rng, lines=1500):
    vocabulary = {pool: [random_word(rng, pool) for _ in range(60)] for pool in WORD_POOLS}
    out = []
    for _ in range(lines):
        words = []
        for _ in range(rng.randint(2, 14)):
            r = rng.random()
            if r < 0.75:
                words.append(rng.choice(vocabulary[rng.choice(WORD_POOLS)]))
            elif r < 0.85:
                words.append(''.join(rng.choice(POOLS['digits']) for _ in range(rng.randint(1, 6))))
            elif r < 0.93:
                words.append(''.join(rng.choice(POOLS['punct']) for _ in range(rng.randint(1, 3))))
            else:
                words.append(rng.choice(POOLS['emoji']))
        out.append(' '.join(words))
    return out


def random_text(rng, specials):
    parts = []
    for _ in range(rng.randint(0, 12)):
        r = rng.random()
        if r < 0.45:
            parts.append(random_word(rng, rng.choice(WORD_POOLS)))
        elif r < 0.55:
            parts.append(rng.choice(POOLS['space']) * rng.randint(1, 4))
        elif r < 0.62:
            parts.append(''.join(rng.choice(POOLS['digits']) for _ in range(rng.randint(1, 7))))
        elif r < 0.70:
            parts.append(''.join(rng.choice(POOLS['punct']) for _ in range(rng.randint(1, 4))))
        elif r < 0.78:
            parts.append(rng.choice(POOLS['emoji']))
        elif r < 0.84:
            parts.append(rng.choice(POOLS['astral'] + POOLS['odd']))
        elif r < 0.90 and specials:
            token = rng.choice(specials)
            parts.append(token if rng.random() < 0.8 else token[:-1])
        elif r < 0.93:
            parts.append('<0x%02X>' % rng.randrange(256))
        else:
            parts.append(' ')
    glue = rng.choice(['', ' ', ' ', ' ', '  ', '\n'])
    return glue.join(parts)


def byte_level_family(rng, texts, kind):
    tokenizer = Tokenizer(models.BPE(ignore_merges=kind == 'llama3'))
    if kind == 'llama3':
        pattern = rng.choice([LLAMA3, QWEN, GPT4O])
        tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(pattern), behavior='isolated', invert=False),
            pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True, use_regex=False)])
    else:
        tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=kind == 'roberta')
    if rng.random() < 0.3:
        tokenizer.normalizer = rng.choice([normalizers.NFC(), normalizers.NFKC()])
    tokenizer.decoder = decoders.ByteLevel()
    specials = {'gpt2': ['<|endoftext|>'], 'roberta': ['<s>', '<pad>', '</s>', '<unk>'],
                'llama3': ['<|begin_of_text|>', '<|end_of_text|>', '<|eot_id|>']}[kind]
    tokenizer.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=rng.randint(300, 1500), special_tokens=specials,
                                                              initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                                              show_progress=False))
    if kind == 'roberta':
        tokenizer.add_special_tokens([AddedToken('<mask>', lstrip=True, normalized=False)])
        tokenizer.post_processor = processors.RobertaProcessing(('</s>', tokenizer.token_to_id('</s>')),
                                                                ('<s>', tokenizer.token_to_id('<s>')))
    elif kind == 'llama3':
        tokenizer.post_processor = processors.TemplateProcessing(
            single='<|begin_of_text|> $A', pair='<|begin_of_text|> $A $B',
            special_tokens=[('<|begin_of_text|>', tokenizer.token_to_id('<|begin_of_text|>'))])
    else:
        tokenizer.post_processor = processors.ByteLevel(trim_offsets=True)
    return tokenizer


def metaspace_family(rng, texts, kind):
    trainer_tokenizer = Tokenizer(models.BPE())
    trainer_tokenizer.pre_tokenizer = pre_tokenizers.Metaspace()
    trainer_tokenizer.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=rng.randint(300, 1200),
                                                                     limit_alphabet=rng.randint(40, 200), show_progress=False))
    vocab, merges = llama_layout(trainer_tokenizer)
    tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=[tuple(m) for m in merges], unk_token='<unk>',
                                     fuse_unk=True, byte_fallback=True))
    if kind == 'llama2':
        tokenizer.normalizer = normalizers.Sequence([normalizers.Prepend('▁'), normalizers.Replace(' ', '▁')])
        tokenizer.decoder = decoders.Sequence([decoders.Replace('▁', ' '), decoders.ByteFallback(), decoders.Fuse(),
                                               decoders.Strip(' ', 1, 0)])
    else:
        tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme=rng.choice(['first', 'always']), split=rng.random() < 0.5)
        tokenizer.decoder = decoders.Sequence([decoders.Replace('▁', ' '), decoders.ByteFallback(), decoders.Fuse(),
                                               decoders.Strip(' ', 1, 0)])
    tokenizer.add_special_tokens([AddedToken(t, normalized=False) for t in ('<unk>', '<s>', '</s>')])
    if kind == 'mistral':
        tokenizer.add_special_tokens([AddedToken('[INST]', normalized=False), AddedToken('[/INST]', normalized=False)])
    tokenizer.post_processor = processors.TemplateProcessing(single='<s> $A', pair='<s> $A $B', special_tokens=[('<s>', 1)])
    return tokenizer


def bert_family(rng, texts):
    tokenizer = Tokenizer(models.WordPiece(unk_token='[UNK]', max_input_chars_per_word=rng.choice([10, 100])))
    lowercase = rng.random() < 0.5
    tokenizer.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=rng.random() < 0.8,
                                                      strip_accents=rng.choice([None, True, False]), lowercase=lowercase)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.decoder = decoders.WordPiece(prefix='##', cleanup=rng.random() < 0.7)
    specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']
    tokenizer.train_from_iterator(texts, trainers.WordPieceTrainer(vocab_size=rng.randint(300, 1500), special_tokens=specials,
                                                                    limit_alphabet=rng.randint(50, 300), show_progress=False))
    tokenizer.post_processor = processors.BertProcessing(('[SEP]', tokenizer.token_to_id('[SEP]')),
                                                         ('[CLS]', tokenizer.token_to_id('[CLS]')))
    tokenizer.add_tokens([AddedToken(random_word(rng, 'ascii'), single_word=rng.random() < 0.5, normalized=True)])
    return tokenizer


def mixed_family(rng, texts):
    """Any normalizer, pre-tokenizer and decoder around a BPE, WordPiece or WordLevel model."""
    normalizer_choices = [normalizers.NFC(), normalizers.NFD(), normalizers.NFKC(), normalizers.NFKD(), normalizers.Lowercase(),
                          normalizers.Strip(), normalizers.StripAccents(), normalizers.Nmt(),
                          normalizers.Replace(Regex(r'\s+'), ' '), normalizers.Replace('a', 'A'), normalizers.Prepend('_')]
    tokenizer_normalizer = normalizers.Sequence(rng.sample(normalizer_choices, rng.randint(0, 3)))
    pre_choices = [pre_tokenizers.Whitespace(), pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation(behavior=rng.choice(
        ['removed', 'isolated', 'merged_with_previous', 'merged_with_next', 'contiguous'])), pre_tokenizers.Digits(rng.random() < 0.5),
        pre_tokenizers.Split(Regex(r'\p{N}+|\s'), behavior=rng.choice(['isolated', 'removed', 'merged_with_next'])),
        pre_tokenizers.CharDelimiterSplit(' '), pre_tokenizers.Metaspace(prepend_scheme=rng.choice(['first', 'always', 'never'])),
        pre_tokenizers.BertPreTokenizer(), pre_tokenizers.FixedLength(rng.randint(2, 8))]
    pre = pre_tokenizers.Sequence(rng.sample(pre_choices, rng.randint(1, 3)))
    kind = rng.choice(['bpe', 'wordpiece', 'wordlevel'])
    if kind == 'bpe':
        suffix = rng.choice([None, '</w>'])
        prefix = rng.choice([None, '##'])
        affixes = {k: v for k, v in (('end_of_word_suffix', suffix), ('continuing_subword_prefix', prefix)) if v}
        tokenizer = Tokenizer(models.BPE(unk_token='<unk>', fuse_unk=rng.random() < 0.5, **affixes))
        trainer = trainers.BpeTrainer(vocab_size=rng.randint(200, 900), special_tokens=['<unk>', '<s>'],
                                      limit_alphabet=rng.randint(30, 150), show_progress=False, **affixes)
        decoder = decoders.BPEDecoder(suffix=suffix) if suffix else decoders.WordPiece(prefix=prefix or '##', cleanup=False)
    elif kind == 'wordpiece':
        tokenizer = Tokenizer(models.WordPiece(unk_token='<unk>'))
        trainer = trainers.WordPieceTrainer(vocab_size=rng.randint(200, 900), special_tokens=['<unk>', '<s>'], show_progress=False)
        decoder = decoders.WordPiece()
    else:
        tokenizer = Tokenizer(models.WordLevel(unk_token='<unk>'))
        trainer = trainers.WordLevelTrainer(vocab_size=rng.randint(100, 600), special_tokens=['<unk>', '<s>'], show_progress=False)
        decoder = None
    tokenizer.normalizer = tokenizer_normalizer
    tokenizer.pre_tokenizer = pre
    tokenizer.train_from_iterator(texts, trainer)
    if decoder is not None or rng.random() < 0.5:
        tokenizer.decoder = decoder if decoder is not None else decoders.Metaspace()
    if rng.random() < 0.5:
        tokenizer.post_processor = processors.TemplateProcessing(single='<s> $A <s>', pair='<s> $A $B',
                                                                 special_tokens=[('<s>', tokenizer.token_to_id('<s>'))])
    tokenizer.add_tokens([AddedToken(random_word(rng, 'ascii'), single_word=rng.random() < 0.5, lstrip=rng.random() < 0.5,
                                     rstrip=rng.random() < 0.5, normalized=rng.random() < 0.5)])
    return tokenizer


def implementation_family(rng, texts):
    """The library's ready-made tokenizers (tokenizers.implementations), with random options."""
    from tokenizers import implementations as impl
    kind = rng.choice(['byte_level', 'char', 'sentencepiece', 'bert'])
    if kind == 'byte_level':
        tokenizer = impl.ByteLevelBPETokenizer(add_prefix_space=rng.random() < 0.5, lowercase=rng.random() < 0.3,
                                               unicode_normalizer=rng.choice([None, 'nfc', 'nfkc']), trim_offsets=rng.random() < 0.5)
        tokenizer.train_from_iterator(texts, vocab_size=rng.randint(300, 1200), special_tokens=['<|endoftext|>'],
                                      show_progress=False)
    elif kind == 'char':
        tokenizer = impl.CharBPETokenizer(unk_token='<unk>', lowercase=rng.random() < 0.5, bert_normalizer=rng.random() < 0.5,
                                          split_on_whitespace_only=rng.random() < 0.5)
        tokenizer.train_from_iterator(texts, vocab_size=rng.randint(300, 1200), special_tokens=['<unk>'], show_progress=False)
    elif kind == 'sentencepiece':
        tokenizer = impl.SentencePieceBPETokenizer(add_prefix_space=rng.random() < 0.7, unk_token='<unk>', fuse_unk=rng.random() < 0.5)
        tokenizer.train_from_iterator(texts, vocab_size=rng.randint(300, 1200), special_tokens=['<unk>', '<s>', '</s>'],
                                      show_progress=False)
    else:
        tokenizer = impl.BertWordPieceTokenizer(clean_text=True, handle_chinese_chars=rng.random() < 0.8,
                                                strip_accents=rng.choice([None, True, False]), lowercase=rng.random() < 0.5)
        tokenizer.train_from_iterator(texts, vocab_size=rng.randint(300, 1200), show_progress=False)
    return tokenizer._tokenizer


def build(rng, texts, family):
    if family == 'implementation':
        return implementation_family(rng, texts)
    if family in ('gpt2', 'roberta', 'llama3'):
        return byte_level_family(rng, texts, family)
    if family in ('llama2', 'mistral'):
        return metaspace_family(rng, texts, family)
    if family == 'bert':
        return bert_family(rng, texts)
    return mixed_family(rng, texts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--texts', type=int, default=300)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--keep', help='write the tokenizers and texts here instead of a temporary folder')
    args = parser.parse_args()
    if not os.path.isfile(JAR):
        sys.exit('build the examples jar first: ' + JAR)
    rng = random.Random(args.seed)
    mismatches = 0
    checked = 0
    work = args.keep or tempfile.mkdtemp(prefix='ein4j-tokenize-')
    for round_number in range(args.rounds):
        texts = corpus(rng)
        for family in ('gpt2', 'roberta', 'llama3', 'llama2', 'mistral', 'bert', 'mixed', 'mixed', 'implementation',
                       'implementation'):
            tokenizer = build(rng, texts, family)
            folder = os.path.join(work, '%d-%s-%d' % (round_number, family, checked))
            os.makedirs(folder, exist_ok=True)
            tokenizer.save(os.path.join(folder, 'tokenizer.json'))
            tokenizer = Tokenizer.from_file(os.path.join(folder, 'tokenizer.json'))
            specials = list(tokenizer.get_added_tokens_decoder()[i].content for i in tokenizer.get_added_tokens_decoder())
            samples = [random_text(rng, specials) for _ in range(args.texts)]
            with open(os.path.join(folder, 'texts.jsonl'), 'w', encoding='utf-8') as out:
                for text in samples:
                    out.write(json.dumps(text) + '\n')
            output = os.path.join(folder, 'out.jsonl')
            run = subprocess.run(['java', '-jar', JAR, 'models', 'tokenize', folder, '--input', os.path.join(folder, 'texts.jsonl'),
                                  '--output', output], capture_output=True, text=True)
            if run.returncode != 0:
                print('FAIL', folder, run.stderr.strip())
                mismatches += 1
                continue
            with open(output, encoding='utf-8') as lines:
                results = [json.loads(line) for line in lines]
            for text, result in zip(samples, results):
                checked += 1
                ids = tokenizer.encode(text).ids
                decoded = tokenizer.decode(ids, skip_special_tokens=False)
                if result['ids'] != ids or result['decoded'] != decoded:
                    mismatches += 1
                    print('MISMATCH', folder, json.dumps(text))
                    print('   python', ids, json.dumps(decoded))
                    print('   java  ', result['ids'], json.dumps(result['decoded']))
    if args.keep:
        print('checked %d texts, %d mismatches (files in %s)' % (checked, mismatches, work))
    else:
        shutil.rmtree(work)
        print('checked %d texts, %d mismatches' % (checked, mismatches))
    sys.exit(1 if mismatches else 0)


if __name__ == '__main__':
    main()
