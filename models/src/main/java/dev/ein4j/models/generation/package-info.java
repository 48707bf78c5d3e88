/**
 * Text generation with causal language models, as transformers' {@code generate}: a
 * {@link dev.ein4j.models.generation.TextGenerator} runs the prompts (a batch of one length) in one
 * pass, then one token per step, reading the keys and values of earlier positions from a
 * {@link dev.ein4j.models.generation.KeyValueCache} instead of recomputing them.
 *
 * <pre>{@code
 * TextGenerator generator = TextGenerator.load(Path.of("gpt2"));            // model, stop tokens, tokenizer
 * Tensor ids = generator.generate(promptIds, GenerationOptions.greedy(32)); // [b, t + n]
 * generator.generateText("Once upon a time", GenerationOptions.sampling(64, new Generator(7))
 *         .temperature(0.8).topK(40).topP(0.95), System.out::print);       // streamed
 * }</pre>
 *
 * <ul>
 *   <li>The cache holds per layer K and V as [b, kvHeads, maxLength, headDim] buffers (grouped-query
 *       and multi-query attention keep their fewer heads); a step writes its keys and values at its
 *       positions in place with {@code cache.assign(cache.scatter(2, positions, keys))}, and attends
 *       to all maxLength positions under a causal mask by position, which hides the positions not
 *       written yet. A decode step's graph therefore has one structure at every position (the
 *       position is a constant, passed to the kernels as a parameter) and replays the schedule of
 *       the first step.</li>
 *   <li>{@link dev.ein4j.models.generation.CausalLanguageModel} is what a model family implements
 *       to run with a cache (GPT-2, Llama); {@link dev.ein4j.models.generation.DecodeStep} is one
 *       pass's positions, mask and cache.</li>
 *   <li>Tokens are chosen on the host from the last position's logits: greedy, or sampled after
 *       temperature, top-k and top-p in transformers' order, with uniforms drawn from a seeded
 *       {@link dev.ein4j.tensor.Generator} (the same seed gives the same tokens).</li>
 *   <li>Stop tokens come from the folder ({@link dev.ein4j.models.generation.GenerationConfig}) or
 *       the options; a finished sequence is padded while the others run.</li>
 *   <li>Each step runs in a {@link dev.ein4j.tensor.Tensor#scope()} and the cache is closed when the
 *       call returns: a generation keeps nothing but the ids it returns.</li>
 * </ul>
 */
package dev.ein4j.models.generation;
