/**
 * OpenCL C generation from {@link dev.ein4j.kernel.Kernel}s, independent of any device API: the
 * output is a {@link dev.ein4j.opencl.codegen.KernelPlan} of sources, launch sizes, parameter
 * tables and the launch values every step takes ({@link dev.ein4j.opencl.codegen.LaunchArguments}:
 * CONST values and RAND seeds are kernel arguments, never part of a source). Generated code agrees
 * with {@link dev.ein4j.kernel.KernelInterpreter}: every instruction rounded to its type, int32
 * wrapping, bool logic, NaN-propagating max, Java's float-to-int conversion, and
 * {@link dev.ein4j.kernel.CounterRandom}'s bits for RAND. Every output of an element is computed
 * before any is stored, and no buffer is {@code restrict}: an output may be an input updated in place.
 *
 * <ul>
 *   <li>elementwise: one work item per output element, every output stored ({@code ElementwiseGenerator});</li>
 *   <li>reduce: one work item or one work group per output, or a split in two passes, with one
 *       accumulator per reduction in the same pass over the source, the epilogue fused ({@code ReduceGenerator});</li>
 *   <li>contract: a 64×64-tiled GEMM through local memory for float types ({@code TiledGemmGenerator}),
 *       a general per-output reduction over K otherwise ({@code GeneralContractGenerator}), operand
 *       prologues evaluated into temporaries first; with replicated axes the product is computed
 *       once into a temporary and the epilogue runs over every replica afterwards.</li>
 *   <li>scatter: one work item per line along the scattered axis, walking it in the interpreter's
 *       order, so writes and additions land as the interpreter's do, without atomics ({@code ScatterGenerator}).</li>
 * </ul>
 *
 * <p>GATHERs are indexed loads in any segment (elementwise, reduction and contraction prologues,
 * epilogues, a scatter's values). Every GATHER and SCATTER checks its index; a bad one is recorded
 * in an error buffer with a 64-bit atomic minimum and turned by the host into the interpreter's
 * exception ({@link dev.ein4j.opencl.codegen.IndexChecks}). Still declined, so run on the
 * interpreter: indexed kernels on a device without cl_khr_int64_extended_atomics, and a GATHER or
 * SCATTER over 2^32 − 1 elements or more (a reduction of an expanded view), besides kernels of
 * more than 4096 instructions and steps whose arguments pass CL_DEVICE_MAX_PARAMETER_SIZE.
 */
package dev.ein4j.opencl.codegen;
