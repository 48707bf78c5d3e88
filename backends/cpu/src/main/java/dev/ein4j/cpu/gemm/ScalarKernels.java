package dev.ein4j.cpu.gemm;

/** The plain-Java kernels, used when the Vector API is not loaded. */
final class ScalarKernels implements Kernels {

    private final FloatKernel floats = new ScalarFloatKernel();
    private final DoubleKernel doubles = new ScalarDoubleKernel();

    @Override
    public String kind() {
        return "scalar";
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
