package dev.ein4j.examples.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs {@code models ...} with stdout and stderr captured, for the command tests. */
final class CommandOutput {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /**
     * @param args the subcommand and its arguments
     * @return the exit status
     */
    int models(String... args) {
        out.reset();
        err.reset();
        return ModelsCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** @return what the last command printed on stdout */
    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** @return what the last command printed on stderr */
    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** @return the one line the last command printed on stderr (failing the test if it printed more or none) */
    String errorLine() {
        String text = err();
        assertThat(text.lines().count()).as("one line on stderr: %s", text).isEqualTo(1);
        return text.strip();
    }
}
