package dev.ein4j.models.generation;

/**
 * Hears each generation step's tokens as soon as they are chosen, before the next step runs: a
 * streaming callback. {@link TextGenerator#generateText} uses one to print text as it comes.
 *
 * <pre>{@code
 * GenerationOptions options = GenerationOptions.greedy(20).listener(tokens -> System.out.println(tokens[0]));
 * }</pre>
 */
@FunctionalInterface
public interface TokenListener {

    /**
     * @param tokens the new token of each sequence, in batch order (a finished sequence's pad token);
     *     the array is the listener's to keep
     */
    void accept(int[] tokens);
}
