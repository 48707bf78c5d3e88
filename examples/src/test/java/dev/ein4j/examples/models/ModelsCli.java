package dev.ein4j.examples.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs {@code models} subcommands in-process and keeps what they print, for the commands' tests. */
final class ModelsCli {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /**
     * @param args a subcommand and its arguments
     * @return the exit status
     */
    int run(String... args) {
        out.reset();
        err.reset();
        return ModelsCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** @return what the last run printed on stdout */
    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    /** @return what the last run printed on stderr */
    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** @return the one line the last run printed on stderr (asserted to be one) */
    String errorLine() {
        String text = err();
        assertThat(text.lines().count()).as("one line on stderr: %s", text).isEqualTo(1);
        return text.strip();
    }
}
