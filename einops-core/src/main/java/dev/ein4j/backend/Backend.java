package dev.ein4j.backend;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import java.util.List;

/**
 * What a backend implements: buffers, and the compute primitives of the IR on strided views.
 * Backends never see patterns, movement ops or graphs; the core resolves movement into
 * {@link BufferView}s and calls one method per compute primitive, always writing a fresh, compact
 * (row-major, offset 0) output buffer of the primitive's output shape.
 *
 * <p>Values are rounded to the output buffer's type on every write. Implementations must be safe
 * to call from several threads, {@link #release} in particular (it runs on a cleaner thread).
 */
public interface Backend {

    /** @return the backend's name, as accepted by {@link Backends#use(String)} */
    String name();

    /**
     * @param dtype element type
     * @param size number of elements, possibly 0
     * @return a new buffer; its contents are undefined until written
     */
    DeviceBuffer allocate(DType dtype, int size);

    /**
     * Copies host data into a buffer, rounding to the buffer's type.
     *
     * @param target a buffer of this backend
     * @param data exactly {@code target.size()} values
     */
    void write(DeviceBuffer target, double[] data);

    /**
     * @param source a buffer of this backend
     * @return its elements, as doubles
     */
    double[] read(DeviceBuffer source);

    /**
     * Whether buffers hold memory that only {@link #release} frees (native or device memory). A
     * backend whose buffers are plain Java arrays answers false: its buffers are then left to the
     * garbage collector, with no cleaner keeping them alive past their last use.
     *
     * @return true unless buffers are ordinary heap objects
     */
    default boolean requiresRelease() {
        return true;
    }

    /**
     * Frees a buffer. Called exactly once per buffer, never while a kernel uses it.
     *
     * @param buffer a buffer of this backend
     */
    void release(DeviceBuffer buffer);

    /**
     * Elementwise primitives, all operands of one shape, the output compact of that shape:
     * UNARY (EXP LOG SQRT RECIPROCAL SIN), CAST and CONTIGUOUS (copy, rounding to the output type),
     * BINARY (ADD MUL MAX CMPLT CMPEQ), TERNARY (WHERE: first operand non-zero selects the second).
     *
     * @param op the primitive
     * @param output compact output buffer
     * @param inputs one, two or three operands
     */
    void elementwise(Op op, DeviceBuffer output, List<BufferView> inputs);

    /**
     * SUM, REDUCE_MAX or PROD over the given axes; the output has the input's shape with those
     * axes of length 1. Reducing an empty axis gives 0, −∞ and 1.
     *
     * @param op the reduction
     * @param output compact output buffer
     * @param input the operand
     * @param axes the reduced axes, ascending
     */
    void reduce(Op op, DeviceBuffer output, BufferView input, int[] axes);

    /**
     * CONTRACT: {@code out = Σ_axes left·right}, the two operands of one shape (usually expanded
     * with zero strides), the output that shape with the contracted axes of length 1.
     *
     * @param output compact output buffer
     * @param left first factor
     * @param right second factor
     * @param axes the summed axes, ascending
     */
    void contract(DeviceBuffer output, BufferView left, BufferView right, int[] axes);

    /**
     * CONST: fills the buffer with one value.
     *
     * @param output the buffer
     * @param value the value, rounded to the buffer's type
     */
    void fill(DeviceBuffer output, double value);

    /**
     * IOTA: element i of the buffer becomes i.
     *
     * @param output the buffer
     */
    void iota(DeviceBuffer output);

    /**
     * RAND: element i becomes {@link CounterRandom#uniformFloat} (float32) or
     * {@link CounterRandom#uniformDouble} (float64) of (seed, i).
     *
     * @param output the buffer
     * @param seed the seed
     */
    void random(DeviceBuffer output, long seed);
}
