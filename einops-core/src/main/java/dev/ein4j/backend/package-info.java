/**
 * The backend SPI: buffers, typed host transfers, and kernel execution.
 *
 * <p>A backend implements {@link dev.ein4j.backend.Backend}: {@code allocate} (throwing
 * {@link dev.ein4j.backend.DeviceMemoryException} when full), {@code write} and {@code read}
 * ({@link dev.ein4j.kernel.HostData}: float32 moves as 4 bytes), {@code execute} of a
 * {@link dev.ein4j.kernel.Kernel} with its output buffers, input buffers and
 * {@link dev.ein4j.kernel.Parameters}, {@code trim} of pooled memory, and {@code release}. It states
 * its {@link dev.ein4j.backend.BackendCapabilities} (types, largest buffer, asynchrony, memory) so
 * that the core rejects what it cannot run before anything runs. Submissions are ordered and may be
 * asynchronous; {@code read} is the synchronisation point; {@code release} means no later submission
 * uses the buffer and is called exactly once per buffer (earlier submissions may still read it).
 *
 * <p>A backend never sees patterns, graphs or movement: the runtime hands it kernels whose loads
 * read its buffers through strided views. The simplest backend runs every kernel with
 * {@link dev.ein4j.kernel.KernelInterpreter} (that is the {@code reference} backend); a fast one
 * compiles kernels, keyed by the kernel value (which excludes parameter values: compile once per
 * kernel, pass the numbers at launch), and may fall back to the interpreter for the rest. Backends
 * register through {@link java.util.ServiceLoader} ({@link dev.ein4j.backend.BackendProvider}) and
 * are chosen by {@link dev.ein4j.backend.Backends}.
 */
package dev.ein4j.backend;
