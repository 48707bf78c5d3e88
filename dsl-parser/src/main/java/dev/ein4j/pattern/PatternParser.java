package dev.ein4j.pattern;

import dev.ein4j.cache.BoundedCache;
import dev.ein4j.error.PatternSyntaxException;
import java.util.Objects;

/**
 * Parses and validates patterns of the ein4j pattern language; the entry point of the pipeline
 * parse → recipe → plan → IR.
 *
 * <pre>{@code
 * ParsedPattern p = PatternParser.parse(Operation.REARRANGE, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)");
 * p.input().terms();   // [b, c, (h p1), (w p2)]
 * p.toString();        // "b c (h p1) (w p2) -> b (h w) (p1 p2 c)"
 * }</pre>
 *
 * <p>Results are cached (bounded, thread-safe), so parsing the same pattern again is a hash lookup.
 * Errors are not cached: a malformed pattern is parsed again each time it is used, and reported
 * each time with the same {@link PatternSyntaxException}.
 */
public final class PatternParser {

    private static final int CACHE_CAPACITY = 4096;
    private static final BoundedCache<Key, ParsedPattern> CACHE = new BoundedCache<>(CACHE_CAPACITY);

    private record Key(Operation operation, String pattern) {
    }

    private PatternParser() {
    }

    /**
     * Parses and validates a pattern for an operation.
     *
     * @param operation which operation's rules apply (and, for einsum, which notation)
     * @param pattern the pattern as written
     * @return the parsed pattern, immutable and shared between callers
     * @throws PatternSyntaxException if the pattern is malformed or breaks the operation's rules
     */
    public static ParsedPattern parse(Operation operation, String pattern) {
        Objects.requireNonNull(operation, "operation");
        if (pattern == null) {
            throw new PatternSyntaxException("", 0, "the pattern is null");
        }
        return CACHE.get(new Key(operation, pattern), key -> parseUncached(key.operation(), key.pattern()));
    }

    /**
     * Parses without consulting or filling the cache (for tests and benchmarks of the parser itself).
     *
     * @param operation which operation's rules apply
     * @param pattern the pattern as written
     * @return the parsed pattern
     * @throws PatternSyntaxException if the pattern is malformed or breaks the operation's rules
     */
    public static ParsedPattern parseUncached(Operation operation, String pattern) {
        Objects.requireNonNull(operation, "operation");
        if (pattern == null) {
            throw new PatternSyntaxException("", 0, "the pattern is null");
        }
        try {
            return PatternValidator.validate(AstBuilder.build(operation, pattern));
        } catch (PatternSyntaxException expected) {
            throw expected;
        } catch (RuntimeException | StackOverflowError unexpected) {
            // The parser has no known failure of its own; if one appears it is still reported as ours.
            throw new PatternSyntaxException(pattern, 0, "cannot parse pattern: " + unexpected);
        }
    }
}
