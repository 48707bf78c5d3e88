/**
 * The CPU backend's matrix multiplication: a batched GEMM over operands addressed through offset tables
 * ({@link dev.ein4j.cpu.gemm.Operand}), in the GotoBLAS/BLIS style: B is packed kc × nc into NR-wide
 * slivers, A mc × kc into MR-tall slivers, and a register-blocked micro-kernel sums each MR × NR tile of
 * C. The entry point is {@link dev.ein4j.cpu.gemm.Gemm}.
 *
 * <p>Layout of the package: {@code Gemm} and {@code Call} check and orient a call (C = A·B or Cᵀ = Bᵀ·Aᵀ,
 * by rules that {@code PackingCost}'s count of each orientation's tiles, packing and stores may
 * override); {@code Split} cuts C
 * into tasks for the shared worker pool; {@code Job} runs the blocked loops of one task, with
 * {@code FloatJob}/{@code DoubleJob} holding the operands and per-thread buffers and {@code FloatPacking}/
 * {@code DoublePacking} filling them; {@code Blocking} sizes the blocks; {@code Kernels} picks the
 * Vector API micro-kernels ({@code Vector*Kernel}, or {@code SmallTileVector*Kernel} where
 * {@code VectorRegisters} finds 16 registers; found reflectively) or the plain-Java ones
 * ({@code Scalar*Kernel}).
 *
 * <p>Nothing is tuned as a constant for one CPU: the micro-tile follows the preferred species and the
 * register count, the blocks are derived from the cache sizes the OS reports ({@code CacheSizes},
 * {@code Blocking}), and {@code GemmSettings} corrects them, and measures the size below which a call
 * stays on one thread, with a short autotune on the first multiply ({@code Tuner} choosing from the
 * timings of {@code MeasuredTrials}); the result is kept per machine and JDK ({@code TuningCache}) in
 * {@code $XDG_CACHE_HOME/ein4j} or {@code ~/.cache/ein4j}. The system properties are listed on
 * {@code GemmSettings}.
 *
 * <p>A thin C (at most four rows or columns: a matrix-vector product, a decode
 * step) takes another way, with no packing: {@code ThinCall} orients it, {@code ThinSplit} cuts it into
 * column ranges for the workers as far as measured costs say it pays, {@code FloatThinJob}/
 * {@code DoubleThinJob} stream B once through the {@code *ThinKernel} loops (found as the micro-kernels
 * are, through {@code ThinKernels}).
 *
 * <p>A small C over a long K whose operands both run contiguously along K (a convolution's weight
 * gradient: taps × channels summed over every pixel of the batch) takes a third way where a cost count
 * says the padded tiles and the transposing pack cost more: {@code DotCall} chooses and orients it,
 * {@code FloatDotJob}/{@code DoubleDotJob} copy both operands K-major a chunk at a time, run by run, and
 * dot two rows with four columns at a time ({@code *ThinKernel#dotRows}), each thread on its own slice
 * of K.
 */
package dev.ein4j.cpu.gemm;
