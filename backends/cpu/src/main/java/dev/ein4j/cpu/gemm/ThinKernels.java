package dev.ein4j.cpu.gemm;

/**
 * The loops of the thin products, for both precisions: the Vector API ones when the micro-kernels are
 * the vector ones (found reflectively, so that nothing the scalar path loads refers to
 * {@code jdk.incubator.vector}), else the plain-Java ones.
 */
final class ThinKernels {

    final FloatThinKernel floats;
    final DoubleThinKernel doubles;

    private ThinKernels(FloatThinKernel floats, DoubleThinKernel doubles) {
        this.floats = floats;
        this.doubles = doubles;
    }

    /**
     * @param kind the micro-kernels' {@link Kernels#kind()}
     * @return the vector loops for "vector" (the scalar ones if they fail to load), else the scalar ones
     */
    static ThinKernels of(String kind) {
        if ("vector".equals(kind)) {
            try {
                return new ThinKernels((FloatThinKernel) create("VectorFloatThinKernel"),
                        (DoubleThinKernel) create("VectorDoubleThinKernel"));
            } catch (ReflectiveOperationException | LinkageError e) {
                // the micro-kernels loaded, so this should not happen; the scalar loops still give the answers
            }
        }
        return new ThinKernels(new ScalarFloatThinKernel(), new ScalarDoubleThinKernel());
    }

    private static Object create(String simpleName) throws ReflectiveOperationException {
        return Class.forName(ThinKernels.class.getPackageName() + "." + simpleName).getDeclaredConstructor()
                .newInstance();
    }
}
