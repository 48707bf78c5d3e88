/**
 * Kernels: what a backend executes.
 *
 * <p>A {@link dev.ein4j.kernel.Kernel} computes one or more compact output buffers from input
 * buffers by a short SSA program of {@link dev.ein4j.kernel.Instruction}s. Movement is already
 * folded into the views of loads and generators, so every instruction is a value per element of its
 * iteration shape. A kernel is elementwise (one or more outputs), or holds reductions (SUM,
 * REDUCE_MAX, PROD over one source shape and axes, computed in one pass) with an optional elementwise
 * epilogue, or one contraction ({@link dev.ein4j.kernel.ContractSpec}: batch, M, N, K and replicated
 * axes, each operand in its own un-expanded view) with optional operand prologues and an epilogue, or
 * one scatter into its output (which holds the base on entry). GATHER instructions are loads at
 * positions an index gives. Numbers are not part of a kernel: CONST values and RAND seeds are
 * {@link dev.ein4j.kernel.Parameters} of each launch, so kernels are immutable values that print
 * themselves and key generated code across training steps.
 *
 * <pre>{@code
 * kernel contract f32[32,16] <- in0 f32, in1 f32, in2 f32 (1 parameter)     relu(x·Wᵀ + b) as one kernel
 *   %0 = const f32[32,16] p0 via [32,16]:(0,0)+0
 *   %1 = load f32[32,64,1] in0 via [32,64,1]:(64,1,0)+0
 *   %2 = load f32[1,64,16] in1 via [1,64,16]:(0,1,64)+0
 *   %3 = contract f32[32,16] %1 %2 batch [] m [32] n [16] k [64] left 0+[][64][1] right 0+[][1][64]
 *   %4 = load f32[32,16] in2 via [32,16]:(0,1)+0
 *   %5 = add f32[32,16] %3 %4
 *   %6 = cmplt bool[32,16] %0 %5
 *   %7 = where f32[32,16] %6 %5 %0
 * }</pre>
 *
 * <p>Semantics: every instruction's value is rounded to its type ({@link dev.ein4j.ir.DType#round});
 * reductions accumulate and round once; an index outside its axis is an
 * {@link dev.ein4j.error.IndexOutOfRangeException}. {@link dev.ein4j.kernel.KernelInterpreter} is the
 * definition: it runs any kernel on {@link dev.ein4j.kernel.HostData} primitive by primitive in double
 * precision, in bounded memory, so a backend that lacks a fast path for some kernel can fall back to
 * it, and every backend is tested against it. {@link dev.ein4j.kernel.CounterRandom} defines RAND's bits.
 */
package dev.ein4j.kernel;
