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
 * </ul>
 */
package dev.ein4j.opencl.codegen;
