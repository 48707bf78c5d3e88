package dev.ein4j.nn.io;

import dev.ein4j.error.EinopsException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the writers share: opening the file, reporting I/O failures, checking strings. */
final class Writing {

    /** The body of a write, given a buffered stream on the file. */
    interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    private Writing() {
    }

    /**
     * Creates or replaces the file and runs the body on it.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    static void toFile(Path file, Body body) {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), DataReader.CHUNK)) {
            body.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param text a name or value to store as UTF-8
     * @param what what it is, for the message
     * @return the text
     * @throws EinopsException if it holds an unpaired surrogate, which UTF-8 cannot encode
     */
    static String checkUnicode(String text, String what) {
        try {
            StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(text));
            return text;
        } catch (CharacterCodingException e) {
            throw new EinopsException("the " + what + " \"" + text + "\" is not valid Unicode (an unpaired surrogate)");
        }
    }
}
