package dev.ein4j.cpu.gemm;

/**
 * The Vector API kernels. Only {@link Kernels#load()} names this class, by reflection, and only when
 * {@code jdk.incubator.vector} is in the boot layer: its kernels link against that module.
 */
final class VectorKernels implements Kernels {

    private final FloatKernel floats = new VectorFloatKernel();
    private final DoubleKernel doubles = new VectorDoubleKernel();

    /** Creates the kernels; public for the reflective lookup. */
    public VectorKernels() {
        // the species is resolved in the kernels' static initializers
    }

    @Override
    public String kind() {
        return "vector";
    }

    @Override
    public FloatKernel floats() {
        return floats;
    }

    @Override
    public DoubleKernel doubles() {
        return doubles;
    }
}
