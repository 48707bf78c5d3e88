/**
 * The runtime: from a graph of nodes to a short list of kernels, run on a backend.
 *
 * <p>{@link dev.ein4j.runtime.Realizer} computes requested nodes: the {@code Scheduler} decides which
 * nodes get a buffer and which are fused into a consumer's kernel (its class comment states the
 * fusion rules), the {@code ScheduleBuilder} emits one kernel per group with movement folded into
 * views, every buffer is checked against the backend's limits before anything runs, and the
 * kernels are submitted in order with buffers reused by liveness. Only requested nodes keep their
 * results ({@link dev.ein4j.runtime.Results}, a side table: the IR holds no data).
 * {@link dev.ein4j.runtime.Realizer#explain} prints the kernel list without running it.
 */
package dev.ein4j.runtime;
