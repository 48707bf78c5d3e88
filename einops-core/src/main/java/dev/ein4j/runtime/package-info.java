/**
 * The runtime: from a graph of nodes to a short list of kernels, run on a backend, and who owns the
 * buffers.
 *
 * <p>{@link dev.ein4j.runtime.Realizer} computes requested nodes. A {@code GraphWalk} visits the part
 * of the graph without data (explicit stack) and encodes its structure as a signature; the
 * {@code ScheduleCache} holds one {@code Schedule} per signature, so a graph of a structure seen before
 * (a training or decode step) replays its schedule and memory plan with its own buffers and numbers.
 * On a miss, the {@code Scheduler} decides which nodes get a buffer and which are fused into a
 * consumer's kernel (its class comment states the fusion rules), the {@code ScheduleBuilder} emits one
 * kernel per group with movement folded into views, every buffer is checked against the backend's
 * limits before anything runs, and the {@code Executor} submits the kernels in order with buffers
 * reused by liveness. Consecutive kernels that share leading rows and read each other's results only
 * within a row ({@code RowGroups}: a softmax's three, a layer norm's) are handed over together
 * ({@link dev.ein4j.backend.Backend#executeRowBlocks}), so that a backend may run them block by
 * block while the block is in cache. {@link dev.ein4j.runtime.Realizer#explain} prints the kernel list without
 * running it. {@link dev.ein4j.runtime.RuntimeContext} holds the runtime's process-wide settings and
 * counters.
 *
 * <p>Ownership: a node's computed data (on the node, {@link dev.ein4j.runtime.Lifetimes}) holds one
 * reference on a reference-counted {@link dev.ein4j.runtime.Storage}; closing the node or ending its
 * {@link dev.ein4j.runtime.Scope} gives it up, and the last reference releases the buffer; a
 * {@link java.lang.ref.Cleaner} releases what nobody closes once nothing reaches it. A realization
 * holds references on the buffers it reads while it runs.
 */
package dev.ein4j.runtime;
