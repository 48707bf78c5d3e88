package dev.ein4j.models.tokenizer;

import dev.ein4j.error.EinopsException;

/**
 * A tokenizer file that cannot be used, or input that a tokenizer cannot take.
 *
 * <p>For a file the message starts with the file and names the JSON path at fault:
 *
 * <pre>
 * dir/tokenizer.json: pre_tokenizer.pretokenizers[1].type "Foo" is not supported (supported: BertPreTokenizer, ByteLevel, ...)
 * dir/tokenizer.json: model.merges[17] "a b c" is not two tokens separated by one space
 * </pre>
 *
 * <p>Failures of the I/O itself (a missing or unreadable file) are {@link java.io.UncheckedIOException}s.
 */
public class TokenizerException extends EinopsException {

    /** @param message the complete, user-facing message */
    public TokenizerException(String message) {
        super(message);
    }

    /**
     * @param message the complete, user-facing message
     * @param cause the lower-level failure, kept for diagnosis
     */
    public TokenizerException(String message, Throwable cause) {
        super(message, cause);
    }
}
