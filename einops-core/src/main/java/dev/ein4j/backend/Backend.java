package dev.ein4j.backend;

import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.List;

/**
 * What a backend implements: buffers, host transfers, and the execution of {@link Kernel}s. A
 * backend never sees patterns, graphs or movement ops: the core fuses the graph into kernels whose
 * loads read buffers through strided views, and hands them over in order.
 *
 * <h2>Execution model</h2>
 * <ul>
 *   <li>Submissions ({@link #write}, {@link #execute}) are ordered: each sees the effects of every
 *       earlier one. They may run asynchronously; the calls may return before the work is done.</li>
 *   <li>{@link #read} is a synchronisation point: it returns the buffer's contents after every
 *       earlier submission.</li>
 *   <li>{@link #release} means no later submission uses the buffer; earlier ones may still be
 *       pending, so a backend frees or recycles it only once they are done. The core calls it
 *       exactly once for every buffer it allocated.</li>
 * </ul>
 *
 * <p>Host transfers are typed ({@link HostData}): float32 data moves as 4 bytes an element. A
 * simple backend can run any kernel with {@link dev.ein4j.kernel.KernelInterpreter} on host arrays.
 * Implementations must be safe to call from several threads ({@link #release} may run on a
 * cleaner thread).
 */
public interface Backend {

    /** @return the backend's name, as accepted by {@link Backends#use(String)} */
    String name();

    /** @return what this backend can store and how large */
    BackendCapabilities capabilities();

    /**
     * @param dtype element type, one of {@link BackendCapabilities#dtypes()}
     * @param size number of elements, possibly 0, at most {@link BackendCapabilities#maxBufferElements()}
     * @return a new buffer; its contents are undefined until written
     * @throws DeviceMemoryException when the backend has no room for it (the runtime then calls
     *     {@link #trim()} once, retries, and reports what is live if that fails too)
     */
    DeviceBuffer allocate(DType dtype, long size);

    /**
     * Gives back memory the backend keeps for reuse (pooled buffers of released tensors), so that
     * a failed allocation can be retried. Buffers still held are untouched.
     */
    default void trim() {
    }

    /**
     * Copies host data into a buffer (a submission, ordered with kernels).
     *
     * @param target a buffer of this backend
     * @param data exactly {@code target.size()} elements of the buffer's type
     */
    void write(DeviceBuffer target, HostData data);

    /**
     * Waits for earlier submissions and copies a buffer to the host.
     *
     * @param source a buffer of this backend
     * @return its elements, in its type
     */
    HostData read(DeviceBuffer source);

    /**
     * Runs a kernel (a submission): writes each output buffer, compact in the kernel's output
     * shape, from the inputs named by the kernel's load slots and the parameters named by its
     * CONST and RAND slots. An output is one of the inputs only for an in-place update
     * ({@code Tensor.assign}, an optimizer's step): then the kernel reads that input exactly at the
     * element it writes (the same contiguous view), so evaluating each element's loads before its
     * stores is enough; kernel code must not declare the buffers non-aliasing ({@code restrict}).
     *
     * @param kernel what to compute (its identity excludes the parameter values: compile once per kernel)
     * @param outputs one buffer per output, of that output's type and the kernel's output size
     * @param inputs one buffer per input slot, of the slot's type
     * @param parameters the values of the kernel's {@link Kernel#parameterCount()} parameter slots
     */
    void execute(Kernel kernel, List<DeviceBuffer> outputs, List<DeviceBuffer> inputs, Parameters parameters);

    /**
     * Runs consecutive kernels that the runtime found to be <em>row-local</em>: their results are
     * those of {@link #execute executing} them one after another, and a backend may instead interleave
     * them over blocks of rows, running every kernel on rows [a, b) before any runs on the next block,
     * so that what the block reads stays in cache between the kernels (a softmax's row maxima, sums of
     * exponentials and scaled exponentials over one read of its input from memory).
     *
     * <p>What the runtime guarantees: each kernel is elementwise or a reduction (no contraction, gather
     * or scatter), and its iteration space (a reduction's source shape, else the output shape) has
     * leading dimensions whose product is {@code rows}; a reduction reduces none of them. Row g of a
     * kernel is flat range [g·n/rows, (g+1)·n/rows) of its iteration space and of each of its outputs
     * (n their sizes). A kernel reads an earlier kernel's output only within the same row; no call
     * writes a buffer that it or an earlier call reads (no in-place update), and no buffer is written twice.
     * The default runs the calls in order.
     *
     * @param calls the kernels in submission order (two or more)
     * @param rows how many rows they share (at least 2)
     */
    default void executeRowBlocks(List<KernelCall> calls, long rows) {
        for (KernelCall call : calls) {
            execute(call.kernel(), call.outputs(), call.inputs(), call.parameters());
        }
    }

    /**
     * Whether buffers must come back through {@link #release} even when the tensors holding them
     * are garbage collected (native or device memory, a pool). A backend whose buffers are plain
     * heap arrays answers false: results are then left to the garbage collector, with no cleaner
     * keeping them alive past their last use. Intermediates are released either way.
     *
     * @return true unless buffers are ordinary heap objects that need no return
     */
    default boolean requiresRelease() {
        return true;
    }

    /**
     * No later submission uses the buffer. Called exactly once per buffer.
     *
     * @param buffer a buffer of this backend
     */
    void release(DeviceBuffer buffer);

    /** Waits until every submission so far has completed (a no-op for synchronous backends). */
    default void synchronize() {
    }
}
