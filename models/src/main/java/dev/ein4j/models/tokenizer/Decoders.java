package dev.ein4j.models.tokenizer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The decoders of a few lines each ({@link ByteLevel} and {@link Metaspace} have their own classes). */
final class Decoders {

    private Decoders() {
    }

    /**
     * @param prefix the continuation prefix ("##")
     * @param cleanup whether to tidy the spaces around punctuation and contractions
     * @return WordPiece: every token but the first loses its prefix or, lacking one, gains a leading space
     */
    static Decoder wordPiece(String prefix, boolean cleanup) {
        return tokens -> {
            List<String> out = new ArrayList<>(tokens.size());
            for (int i = 0; i < tokens.size(); i++) {
                String token = tokens.get(i);
                if (i > 0) {
                    token = token.startsWith(prefix) ? token.substring(prefix.length()) : " " + token;
                }
                out.add(cleanup ? cleanup(token) : token);
            }
            return out;
        };
    }

    /**
     * The WordPiece cleanup, applied to one token at a time as Hugging Face does.
     *
     * @param text a token
     * @return the token without spaces before punctuation and contractions
     */
    static String cleanup(String text) {
        return text.replace(" .", ".").replace(" ?", "?").replace(" !", "!").replace(" ,", ",").replace(" ' ", "'")
                .replace(" n't", "n't").replace(" 'm", "'m").replace(" do not", " don't").replace(" 's", "'s")
                .replace(" 've", "'ve").replace(" 're", "'re");
    }

    /**
     * @return ByteFallback: runs of {@code <0xNN>} tokens become the text of their bytes, or one U+FFFD per
     *     byte when the run is not valid UTF-8
     */
    static Decoder byteFallback() {
        return tokens -> {
            List<String> out = new ArrayList<>(tokens.size());
            byte[] run = new byte[16];
            int length = 0;
            for (String token : tokens) {
                int value = byteValue(token);
                if (value >= 0) {
                    if (length == run.length) {
                        run = Arrays.copyOf(run, length * 2);
                    }
                    run[length++] = (byte) value;
                    continue;
                }
                flushBytes(run, length, out);
                length = 0;
                out.add(token);
            }
            flushBytes(run, length, out);
            return out;
        };
    }

    /** @return Fuse: all tokens as one string */
    static Decoder fuse() {
        return tokens -> List.of(String.join("", tokens));
    }

    /**
     * @param content the character to strip
     * @param start at most how many to strip from the start of each token
     * @param stop at most how many to strip from the end of each token
     * @return Strip
     */
    static Decoder strip(int content, int start, int stop) {
        return tokens -> {
            List<String> out = new ArrayList<>(tokens.size());
            for (String token : tokens) {
                out.add(strip(token, content, start, stop));
            }
            return out;
        };
    }

    private static String strip(String token, int content, int start, int stop) {
        int[] codePoints = token.codePoints().toArray();
        int startCut = 0;
        while (startCut < Math.min(start, codePoints.length) && codePoints[startCut] == content) {
            startCut++;
        }
        int stopCut = codePoints.length;
        for (int i = 0; i < stop; i++) {
            int index = codePoints.length - i - 1;
            if (index < 0) {
                // Hugging Face indexes before the token here and panics
                throw new TokenizerException("the Strip decoder cannot strip " + stop + " characters from the token \""
                        + token + "\"");
            }
            if (codePoints[index] != content) {
                break;
            }
            stopCut = index;
        }
        if (startCut > stopCut) {
            throw new TokenizerException("the Strip decoder strips more characters than the token \"" + token + "\" has");
        }
        return new String(codePoints, startCut, stopCut - startCut);
    }

    /**
     * @param pattern what to replace in each token
     * @param content the replacement
     * @return Replace
     */
    static Decoder replace(TextPattern pattern, String content) {
        return tokens -> {
            List<String> out = new ArrayList<>(tokens.size());
            for (String token : tokens) {
                out.add(NormalizedText.of(token).replace(pattern, content).text());
            }
            return out;
        };
    }

    /**
     * @param suffix the end-of-word suffix ("</w>")
     * @return BPEDecoder: the suffix becomes a space, or nothing in the last token
     */
    static Decoder bpe(String suffix) {
        return tokens -> {
            List<String> out = new ArrayList<>(tokens.size());
            for (int i = 0; i < tokens.size(); i++) {
                out.add(tokens.get(i).replace(suffix, i == tokens.size() - 1 ? "" : " "));
            }
            return out;
        };
    }

    /**
     * @param padToken the CTC blank, deleted
     * @param wordDelimiter the word delimiter, a space after cleanup
     * @param cleanup whether to clean up and replace the delimiter
     * @return CTC: repeated tokens collapse to one, blanks and empty tokens disappear
     */
    static Decoder connectionistTemporalClassification(String padToken, String wordDelimiter, boolean cleanup) {
        return tokens -> {
            List<String> out = new ArrayList<>(tokens.size());
            String previous = null;
            for (String token : tokens) {
                if (token.equals(previous)) {
                    continue;
                }
                previous = token;
                String text = token.replace(padToken, "");
                if (cleanup) {
                    text = cleanup(text).replace(wordDelimiter, " ");
                }
                if (!text.isEmpty()) {
                    out.add(text);
                }
            }
            return out;
        };
    }

    /**
     * @param decoders the decoders, each given the output of the previous one
     * @return Sequence
     */
    static Decoder sequence(List<Decoder> decoders) {
        List<Decoder> chain = List.copyOf(decoders);
        return tokens -> {
            List<String> out = tokens;
            for (Decoder decoder : chain) {
                out = decoder.decodeChain(out);
            }
            return out;
        };
    }

    /** @return the byte of a {@code <0xNN>} token (Rust's u8 parse also takes a "+" sign), or -1 */
    private static int byteValue(String token) {
        if (token.length() != 6 || !token.startsWith("<0x") || token.charAt(5) != '>') {
            return -1;
        }
        char high = token.charAt(3);
        int low = Character.digit(token.charAt(4), 16);
        int value = high == '+' ? low : (Character.digit(high, 16) < 0 || low < 0 ? -1 : Character.digit(high, 16) * 16 + low);
        boolean ascii = token.charAt(3) < 0x80 && token.charAt(4) < 0x80;
        return ascii && low >= 0 ? value : -1;
    }

    private static void flushBytes(byte[] run, int length, List<String> out) {
        if (length == 0) {
            return;
        }
        String text = Utf8.decodeStrict(run, length);
        if (text != null) {
            out.add(text);
        } else {
            for (int i = 0; i < length; i++) {
                out.add("\uFFFD");
            }
        }
    }
}
