/**
 * OpenCL C generation from {@link dev.ein4j.kernel.Kernel}s, independent of any device API: the
 * output is a {@link dev.ein4j.opencl.codegen.KernelPlan} of sources, launch sizes and parameter
 * tables. Generated code agrees with {@link dev.ein4j.kernel.KernelInterpreter}: every instruction
 * rounded to its type, int32 wrapping, bool logic, NaN-propagating max, Java's float-to-int
 * conversion, and {@link dev.ein4j.kernel.CounterRandom}'s bits for RAND.
 *
 * <ul>
 *   <li>elementwise: one work item per output element ({@code ElementwiseGenerator});</li>
 *   <li>reduce: one work item or one work group per output, the epilogue fused ({@code ReduceGenerator});</li>
 *   <li>contract: a 64×64-tiled GEMM through local memory for float types ({@code TiledGemmGenerator}),
 *       a general per-output reduction over K otherwise ({@code GeneralContractGenerator}), operand
 *       prologues evaluated into temporaries first.</li>
 * </ul>
 */
package dev.ein4j.opencl.codegen;
