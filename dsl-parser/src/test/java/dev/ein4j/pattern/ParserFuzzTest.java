package dev.ein4j.pattern;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.error.ErrorFormat;
import dev.ein4j.error.PatternSyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded fuzzing of {@link PatternParser#parseUncached}: random strings over the pattern alphabet
 * and random edits of valid patterns, each parsed for every {@link Operation}. Every call must
 * either return a pattern whose canonical form re-parses to an equal value (and prints the same
 * again), or throw a {@link PatternSyntaxException} with a column inside the pattern (0 .. length
 * + 1) and a well-formed message. Any other throwable, and the parser's own "cannot parse pattern:"
 * wrapper for an internal failure, fails the test with the input that caused it.
 */
class ParserFuzzTest {

    /** Tokens of the pattern alphabet; letters and spaces are repeated to make them more common. */
    private static final String[] ALPHABET = {
        "a", "b", "c", "h", "w", "i", "j", "k", "kh", "x", "B", "Z", "p1",
        "0", "2", "3", "7", "9", "1", "1",
        " ", " ", " ", " ", "\t", "\n",
        "(", "(", ")", ")", "->", "->", ",", "...", ".", "*", "+", "_", "é", "#",
    };

    /** Single characters for edits: every character of the alphabet, one at a time. */
    private static final String EDIT_CHARS = "abchwijkxBZ0123479 \t\n()->,.*+_é#";

    private static final int RANDOM_STRINGS = 100_000;
    private static final int MUTATIONS = 50_000;
    private static final int MAX_REPORTED = 20;

    private final List<String> failures = new ArrayList<>();
    private long accepted;
    private long rejected;

    @Test
    @Timeout(120)
    void randomStringsOverThePatternAlphabet() {
        SplittableRandom random = new SplittableRandom(0x5EED_E1A4_0001L);
        for (int n = 0; n < RANDOM_STRINGS; n++) {
            int length = random.nextInt(41);
            StringBuilder text = new StringBuilder(length + 3);
            while (text.length() < length) {
                text.append(ALPHABET[random.nextInt(ALPHABET.length)]);
            }
            text.setLength(length);
            checkEveryOperation(text.toString(), "random #" + n);
        }
        report(RANDOM_STRINGS);
        // Not vacuous: some random strings are valid for some operation, and most are rejected.
        assertThat(accepted).isGreaterThan(1_000);
        assertThat(rejected).isGreaterThan(accepted);
    }

    @Test
    @Timeout(120)
    void mutationsOfValidPatterns() {
        SplittableRandom random = new SplittableRandom(0x5EED_E1A4_0002L);
        List<ValidPatternsTest.Valid> seeds = ValidPatternsTest.VALID;
        for (int n = 0; n < MUTATIONS; n++) {
            String seed = seeds.get(random.nextInt(seeds.size())).pattern();
            int edits = 1 + random.nextInt(3);
            StringBuilder text = new StringBuilder(seed);
            for (int e = 0; e < edits; e++) {
                mutate(text, random);
            }
            checkEveryOperation(text.toString(), "mutation #" + n + " of \"" + ValidPatternsTest.escape(seed) + "\"");
        }
        report(MUTATIONS);
        assertThat(accepted).isGreaterThan(10_000);
        assertThat(rejected).isGreaterThan(10_000);
    }

    @Test
    void everyValidSeedStillParsesUnderItsOwnOperation() {
        // Guards the mutation test's premise: its seeds are valid.
        for (ValidPatternsTest.Valid seed : ValidPatternsTest.VALID) {
            checkEveryOperation(seed.pattern(), "seed");
            assertThat(PatternParser.parseUncached(seed.operation(), seed.pattern())).isNotNull();
        }
        report(0);
    }

    private static void mutate(StringBuilder text, SplittableRandom random) {
        char c = EDIT_CHARS.charAt(random.nextInt(EDIT_CHARS.length()));
        int length = text.length();
        switch (length == 0 ? 0 : random.nextInt(4)) {
            case 0 -> text.insert(random.nextInt(length + 1), c);                   // insert
            case 1 -> text.deleteCharAt(random.nextInt(length));                     // delete
            case 2 -> text.setCharAt(random.nextInt(length), c);                     // replace
            default -> {                                                             // swap
                int i = random.nextInt(length);
                int j = random.nextInt(length);
                char ci = text.charAt(i);
                text.setCharAt(i, text.charAt(j));
                text.setCharAt(j, ci);
            }
        }
    }

    private void checkEveryOperation(String pattern, String origin) {
        for (Operation operation : Operation.values()) {
            String failure = check(operation, pattern);
            if (failure != null && failures.size() < MAX_REPORTED) {
                failures.add(operation + " \"" + ValidPatternsTest.escape(pattern) + "\" (" + origin + "): " + failure);
            }
        }
    }

    /** @return null when the parser behaved, else what went wrong */
    private String check(Operation operation, String pattern) {
        ParsedPattern parsed;
        try {
            parsed = PatternParser.parseUncached(operation, pattern);
        } catch (PatternSyntaxException e) {
            rejected++;
            return checkRejection(pattern, e);
        } catch (Throwable unexpected) {
            return "threw " + describe(unexpected);
        }
        accepted++;
        try {
            if (parsed == null) {
                return "returned null";
            }
            String canonical = parsed.toString();
            ParsedPattern reparsed = PatternParser.parseUncached(operation, canonical);
            if (!reparsed.equals(parsed)) {
                return "canonical form \"" + ValidPatternsTest.escape(canonical) + "\" re-parses to a different pattern \""
                        + ValidPatternsTest.escape(reparsed.toString()) + "\"";
            }
            if (!reparsed.toString().equals(canonical)) {
                return "printing is not idempotent: \"" + ValidPatternsTest.escape(canonical) + "\" then \""
                        + ValidPatternsTest.escape(reparsed.toString()) + "\"";
            }
            return null;
        } catch (Throwable e) {
            return "accepted, but its canonical form \"" + ValidPatternsTest.escape(String.valueOf(parsed))
                    + "\" does not re-parse: " + describe(e);
        }
    }

    private static String checkRejection(String pattern, PatternSyntaxException e) {
        if (e.reason() == null || e.reason().startsWith("cannot parse pattern")) {
            return "internal failure reported as a syntax error: " + e.reason();
        }
        if (e.column() < 0 || e.column() > pattern.length() + 1) {
            return "column " + e.column() + " outside 0.." + (pattern.length() + 1) + ": " + e.reason();
        }
        if (e.column() == 0) {
            // Allowed by the contract, but every rejection of a non-null pattern has a position.
            return "rejected without a position (column 0): " + e.reason();
        }
        if (!pattern.equals(e.pattern())) {
            return "exception carries a different pattern: \"" + ValidPatternsTest.escape(e.pattern()) + "\"";
        }
        if (!e.getMessage().equals(e.reason() + ErrorFormat.pointAt(pattern, e.column()))) {
            return "malformed message: " + e.getMessage();
        }
        return null;
    }

    private static String describe(Throwable t) {
        StackTraceElement[] trace = t.getStackTrace();
        return t + (trace.length > 0 ? " at " + trace[0] : "");
    }

    private void report(int inputs) {
        assertThat(failures)
                .as("parser misbehaved on %d of the inputs (first %d shown)", failures.size(), MAX_REPORTED)
                .isEmpty();
        if (inputs > 0) {
            assertThat(accepted + rejected).isEqualTo((long) inputs * Operation.values().length);
        }
    }
}
