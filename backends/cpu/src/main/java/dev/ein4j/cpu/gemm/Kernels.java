package dev.ein4j.cpu.gemm;

/**
 * One implementation of the micro-kernels for both precisions. The vector one is found reflectively so
 * that nothing the scalar path loads refers to {@code jdk.incubator.vector}.
 */
interface Kernels {

    /** The system property that, set to {@code false}, forces the scalar kernels. */
    String VECTOR_PROPERTY = "ein4j.cpu.vector";

    /** @return "vector" or "scalar" */
    String kind();

    /** @return the float32 micro-kernel */
    FloatKernel floats();

    /** @return the float64 micro-kernel */
    DoubleKernel doubles();

    /**
     * @return the Vector API kernels when the module is in the boot layer and not switched off, else
     *     the scalar ones (also when the vector ones fail to load, e.g. on a VM without the intrinsics)
     */
    static Kernels load() {
        boolean wanted = !"false".equalsIgnoreCase(System.getProperty(VECTOR_PROPERTY, "true").trim());
        if (wanted && ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
            try {
                return (Kernels) Class.forName("dev.ein4j.cpu.gemm.VectorKernels")
                        .getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException | LinkageError e) {
                // the module is there but unusable: the scalar kernels still give the right answers
            }
        }
        return new ScalarKernels();
    }
}
