package dev.ein4j.cpu.gemm;

/**
 * The Vector API kernels. Only {@link Kernels#load()} names this class, by reflection, and only when
 * {@code jdk.incubator.vector} is in the boot layer: its kernels link against that module.
 */
final class VectorKernels implements Kernels {

    private final FloatKernel floats;
    private final DoubleKernel doubles;

    /**
     * Creates the kernels with the tile the machine's vector registers hold ({@link VectorRegisters});
     * public for the reflective lookup.
     */
    public VectorKernels() {
        int bits = jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.vectorBitSize();
        int registers = VectorRegisters.count(System.getProperty("os.arch"), bits,
                System.getProperty(VectorRegisters.PROPERTY));
        boolean large = VectorRegisters.fitsLargeTile(registers);
        floats = large ? new VectorFloatKernel() : new SmallTileVectorFloatKernel();
        doubles = large ? new VectorDoubleKernel() : new SmallTileVectorDoubleKernel();
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
