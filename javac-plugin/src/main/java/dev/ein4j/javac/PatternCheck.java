package dev.ein4j.javac;

import dev.ein4j.error.PatternSyntaxException;
import dev.ein4j.pattern.Operation;
import dev.ein4j.pattern.PatternParser;
import java.util.Optional;

/** One pattern, checked as the library checks it before any shape is known. */
final class PatternCheck {

    private PatternCheck() {
    }

    /**
     * @param argument the index of the pattern argument in its call
     * @param operation whose rules apply
     * @param pattern the pattern's constant value
     * @return what the library would throw, if anything
     */
    static Optional<Problem> check(int argument, Operation operation, String pattern) {
        try {
            PatternParser.parse(operation, pattern);
            return Optional.empty();
        } catch (PatternSyntaxException rejected) {
            return Optional.of(new Problem(argument, rejected.column(), firstLine(rejected)));
        }
    }

    /** The library's message without the pattern and caret lines that follow it. */
    static String firstLine(RuntimeException error) {
        String message = String.valueOf(error.getMessage());
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }
}
