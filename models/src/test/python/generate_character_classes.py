#!/usr/bin/env python3
"""Generate the character classes that ein4j's tokenizers share with Hugging Face `tokenizers`.

    python3 models/src/test/python/generate_character_classes.py

The Rust crate classifies characters with several Unicode tables of different ages: the
punctuation, control and mark predicates come from an old `unicode_categories` table, `\\w` from
the `regex` crate's current one, `is_numeric` from the standard library's. Java 17's tables
(Unicode 13) agree with none of them exactly, so the classes are measured here, one code point at
a time, through the library's public components, and written as ranges to
models/src/main/resources/dev/ein4j/models/tokenizer/character-classes.txt (about 20 KiB).

Classes (the component that measures each):
  punctuation     BertPreTokenizer and Punctuation: a character split off on its own
  numeric         Digits(individual_digits=True): a character split off on its own
  word            Whitespace's `\\w`: a character kept inside a word
  bert_removed    BertNormalizer(clean_text=True): a character deleted
  combining_mark  StripAccents: a character deleted
  nonspacing_mark BertNormalizer(strip_accents=True): a character deleted after NFD
"""
import os

import tokenizers
from tokenizers import normalizers, pre_tokenizers

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(HERE, '..', '..', 'main', 'resources', 'dev', 'ein4j', 'models', 'tokenizer',
                      'character-classes.txt')


def code_points():
    return (c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)


def pieces(pre_tokenizer, character):
    return len(pre_tokenizer.pre_tokenize_str('a' + character + 'a'))


def measure():
    punctuation = pre_tokenizers.Punctuation()
    digits = pre_tokenizers.Digits(individual_digits=True)
    whitespace = pre_tokenizers.Whitespace()
    clean = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=False, strip_accents=False,
                                       lowercase=False)
    strip_accents = normalizers.StripAccents()
    bert_strip = normalizers.BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=True,
                                            lowercase=False)
    classes = {name: [] for name in ('punctuation', 'numeric', 'word', 'bert_removed', 'combining_mark',
                                     'nonspacing_mark')}
    for c in code_points():
        ch = chr(c)
        if pieces(punctuation, ch) == 3:
            classes['punctuation'].append(c)
        if pieces(digits, ch) == 3:
            classes['numeric'].append(c)
        if pieces(whitespace, ch) == 1:
            classes['word'].append(c)
        if clean.normalize_str(ch) == '':
            classes['bert_removed'].append(c)
        if strip_accents.normalize_str(ch) == '':
            classes['combining_mark'].append(c)
        if bert_strip.normalize_str(ch) == '':
            classes['nonspacing_mark'].append(c)
    return classes


def ranges(points):
    out = []
    for c in points:
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return ' '.join('%X' % a if a == b else '%X-%X' % (a, b) for a, b in out)


def main():
    classes = measure()
    with open(OUTPUT, 'w', encoding='ascii', newline='\n') as out:
        out.write('# Character classes of Hugging Face tokenizers %s, measured by\n' % tokenizers.__version__)
        out.write('# models/src/test/python/generate_character_classes.py (do not edit): NAME RANGE...\n')
        for name, points in classes.items():
            out.write(name + ' ' + ranges(points) + '\n')
    print('wrote', os.path.normpath(OUTPUT))


if __name__ == '__main__':
    main()
