package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.Shapes;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a {@link Kernel} into OpenCL C: the entry point of code generation. Elementwise and reduce
 * kernels are one launch each; a contraction is one launch (tiled GEMM or general), preceded by one
 * elementwise launch per operand whose prologue is more than a plain load, which fills a compact
 * temporary of the operand's shape (the spec then reads it as a row-major array).
 *
 * <p>Two forms of the same code ({@link Constants}): <b>baked</b>, every length, stride and value
 * a literal, one program per kernel and the fastest; <b>parameterised</b>, those numbers read from a
 * small table, one program per kernel structure, shared by every kernel that differs only in them.
 */
public final class KernelPlanner {

    /** Contraction lengths past this do not fit the generated int arithmetic. */
    static final long MAX_LENGTH = Integer.MAX_VALUE - 64;

    private KernelPlanner() {
    }

    /**
     * @param kernel the kernel
     * @param limits the device's limits
     * @param baked whether numbers are literals (else a parameter table)
     * @return the launches that run it
     * @throws UnsupportedKernelException for a program shape the generator does not handle
     */
    public static KernelPlan plan(Kernel kernel, DeviceLimits limits, boolean baked) {
        return switch (kernel.kind()) {
            case ELEMENTWISE -> new KernelPlan(List.of(ElementwiseGenerator.generate(kernel, Kernel.Segment.OUTPUT,
                    kernel.size() - 1, limits, constants(baked), -1)), List.of());
            case REDUCE -> {
                List<KernelPlan.Temporary> temporaries = new ArrayList<>();
                List<KernelPlan.Step> steps = ReduceGenerator.generate(kernel, limits, constants(baked), temporaries);
                yield new KernelPlan(steps, temporaries);
            }
            case CONTRACT -> contract(kernel, limits, baked);
            case SCATTER -> throw new UnsupportedKernelException("scatter kernels run on the interpreter");
        };
    }

    private static Constants constants(boolean baked) {
        return baked ? Constants.baked() : Constants.parameters();
    }

    private static KernelPlan contract(Kernel kernel, DeviceLimits limits, boolean baked) {
        ContractLayout layout = new ContractLayout(kernel);
        if (layout.k > MAX_LENGTH) {
            throw new UnsupportedKernelException("a contraction over " + layout.k + " elements");
        }
        List<KernelPlan.Step> steps = new ArrayList<>();
        List<KernelPlan.Temporary> temporaries = new ArrayList<>();
        List<String[]> parameters = new ArrayList<>();
        List<Integer> indices = new ArrayList<>();
        if (layout.leftHasPrologue()) {
            prologue(kernel, Kernel.Segment.LEFT, layout.contract.source(0), limits, baked, steps, temporaries, parameters, indices,
                    "lhs");
        }
        if (layout.rightHasPrologue()) {
            prologue(kernel, Kernel.Segment.RIGHT, layout.contract.source(1), limits, baked, steps, temporaries, parameters, indices,
                    "rhs");
        }
        int[] read = indices.stream().mapToInt(Integer::intValue).toArray();
        if (TiledGemmGenerator.suits(layout, limits)) {
            steps.add(TiledGemmGenerator.generate(layout, limits, constants(baked), parameters, read));
        } else {
            steps.addAll(GeneralContractGenerator.generate(layout, limits, constants(baked), parameters, read, temporaries));
        }
        return new KernelPlan(steps, temporaries);
    }

    private static void prologue(Kernel kernel, Kernel.Segment segment, int root, DeviceLimits limits, boolean baked,
                                 List<KernelPlan.Step> steps, List<KernelPlan.Temporary> temporaries, List<String[]> parameters,
                                 List<Integer> indices, String name) {
        Instruction operand = kernel.instruction(root);
        int index = temporaries.size();
        temporaries.add(new KernelPlan.Temporary(operand.dtype(), Shapes.size(operand.shape())));
        steps.add(ElementwiseGenerator.generate(kernel, segment, root, limits, constants(baked), index));
        parameters.add(new String[] {name, CType.of(operand.dtype()).cName()});
        indices.add(index);
    }
}
