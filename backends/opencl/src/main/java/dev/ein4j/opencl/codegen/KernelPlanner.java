package dev.ein4j.opencl.codegen;

import dev.ein4j.ir.Shapes;
import dev.ein4j.kernel.ContractSpec;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Turns a {@link Kernel} into OpenCL C: the entry point of code generation. Elementwise and reduce
 * kernels are one launch each (every output stored by it); a contraction is one launch (tiled GEMM
 * or general), preceded by one elementwise launch per operand whose prologue is more than a plain
 * load, which fills a compact temporary of the operand's shape (the spec then reads it as a
 * row-major array). A contraction with replicated axes computes its product once, at replica 0,
 * into a temporary; a last launch runs the epilogue over every output element, each reading the
 * product at its replica-0 position. A scatter is one launch ({@link ScatterGenerator}); gathers are
 * indexed loads wherever they occur. A kernel with either takes an index-error buffer ({@link IndexChecks}).
 *
 * <p>Two forms of the same code ({@link Constants}): <b>baked</b>, every length, stride and pad
 * value a literal, one program per kernel and the fastest; <b>parameterised</b>, those numbers read
 * from a small table, one program per kernel structure, shared by every kernel that differs only in
 * them. In both, a launch's CONST values and RAND seeds arrive with the launch ({@link LaunchArguments}),
 * so neither form depends on them.
 */
public final class KernelPlanner {

    /** Contraction lengths past this do not fit the generated int arithmetic. */
    static final long MAX_LENGTH = Integer.MAX_VALUE - 64;
    /** The bytes a buffer argument may take (a 64-bit device pointer). */
    static final int POINTER_BYTES = 8;
    /**
     * Kernels longer than this are declined (and run on the interpreter): building a program takes
     * more than linear time in its length. PoCL on two cores built a chain of 4,000 instructions in
     * 1.3 s, 8,000 in 4.4 s, 16,000 in 17 s and 32,000 in 144 s; only a fused chain of tens of
     * thousands of primitives (a stress test) comes near.
     */
    static final int MAX_INSTRUCTIONS = 4096;

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
        requireIndexChecks(kernel, limits);
        if (kernel.size() > MAX_INSTRUCTIONS) {
            throw new UnsupportedKernelException("a kernel of " + kernel.size() + " instructions, more than the "
                    + MAX_INSTRUCTIONS + " a program is built from in reasonable time");
        }
        LaunchArguments launch = LaunchArguments.of(kernel, limits);
        Supplier<Constants> constants = () -> baked ? Constants.baked(launch) : Constants.parameters(launch);
        List<KernelPlan.Temporary> temporaries = new ArrayList<>();
        List<KernelPlan.Step> steps = switch (kernel.kind()) {
            case ELEMENTWISE -> List.of(ElementwiseGenerator.outputs(kernel, limits, constants.get()));
            case REDUCE -> ReduceGenerator.generate(kernel, limits, constants.get(), temporaries);
            case CONTRACT -> contract(kernel, limits, constants, temporaries);
            case SCATTER -> List.of(ScatterGenerator.generate(kernel, limits, constants.get()));
        };
        KernelPlan plan = new KernelPlan(steps, temporaries, launch, IndexChecks.slots(kernel));
        requireArgumentRoom(kernel, plan, limits);
        return plan;
    }

    /**
     * A GATHER or SCATTER records a bad index with a 64-bit atomic minimum over a 32-bit position
     * ({@link IndexChecks}): the device needs cl_khr_int64_extended_atomics, and the instruction's
     * iteration space fewer than 2^32 − 1 elements (only a reduction of an expanded view has more).
     */
    private static void requireIndexChecks(Kernel kernel, DeviceLimits limits) {
        for (int i : IndexChecks.checked(kernel)) {
            if (!limits.int64Atomics()) {
                throw new UnsupportedKernelException("gathers and scatters need cl_khr_int64_extended_atomics to report bad indices");
            }
            Instruction checked = kernel.instruction(i);
            long size = checked.isScatter() ? kernel.instruction(checked.source(0)).size() : checked.size();
            if (size >= IndexChecks.MAX_POSITIONS) {
                throw new UnsupportedKernelException("a " + checked.op() + " over " + size
                        + " elements, more than an index error's 32-bit position holds");
            }
        }
    }

    /** Every argument of a launch must fit the device's CL_DEVICE_MAX_PARAMETER_SIZE. */
    private static void requireArgumentRoom(Kernel kernel, KernelPlan plan, DeviceLimits limits) {
        long values = plan.launch().inBuffer() ? POINTER_BYTES : 0;
        for (LaunchArguments.Argument argument : plan.launch().arguments()) {
            values += plan.launch().inBuffer() ? 0 : argument.kind().bytes();
        }
        for (KernelPlan.Step step : plan.steps()) {
            int written = step.writesOutputs() ? kernel.outputCount() : step.outputTemporaries().length;
            long buffers = (long) written + kernel.inputCount() + step.temporaryInputs().length + 1 + (plan.indexChecks() > 0 ? 1 : 0);
            long bytes = buffers * POINTER_BYTES + values;
            if (bytes > limits.maxParameterBytes()) {
                throw new UnsupportedKernelException("the " + buffers + " buffers and the launch values of a step take " + bytes
                        + " bytes of arguments, more than the device's " + limits.maxParameterBytes());
            }
        }
    }

    private static List<KernelPlan.Step> contract(Kernel kernel, DeviceLimits limits, Supplier<Constants> constants,
                                                  List<KernelPlan.Temporary> temporaries) {
        ContractLayout layout = new ContractLayout(kernel);
        if (layout.k > MAX_LENGTH) {
            throw new UnsupportedKernelException("a contraction over " + layout.k + " elements");
        }
        List<KernelPlan.Step> steps = new ArrayList<>();
        List<String[]> parameters = new ArrayList<>();
        List<Integer> indices = new ArrayList<>();
        if (layout.leftHasPrologue()) {
            prologue(kernel, Kernel.Segment.LEFT, layout.contract.source(0), limits, constants.get(), steps, temporaries, parameters,
                    indices, "lhs");
        }
        if (layout.rightHasPrologue()) {
            prologue(kernel, Kernel.Segment.RIGHT, layout.contract.source(1), limits, constants.get(), steps, temporaries, parameters,
                    indices, "rhs");
        }
        int[] read = indices.stream().mapToInt(Integer::intValue).toArray();
        ContractSpec spec = layout.spec;
        int product = -1;
        ContractLayout.Results results = new ContractLayout.Results(Signature.outputTypes(kernel), new int[0]);
        if (spec.hasReplicas()) {
            product = temporaries.size();
            temporaries.add(new KernelPlan.Temporary(layout.contract.dtype(), Shapes.size(spec.outputShape())));
            results = new ContractLayout.Results(List.of(CType.of(layout.contract.dtype())), new int[] {product});
        }
        if (TiledGemmGenerator.suits(layout, limits)) {
            steps.add(TiledGemmGenerator.generate(layout, limits, constants.get(), parameters, read, results));
        } else {
            steps.addAll(GeneralContractGenerator.generate(layout, limits, constants.get(), parameters, read, temporaries, results));
        }
        if (product >= 0) {
            steps.add(ElementwiseGenerator.replicas(kernel, spec, limits, constants.get(), product));
        }
        return steps;
    }

    private static void prologue(Kernel kernel, Kernel.Segment segment, int root, DeviceLimits limits, Constants constants,
                                 List<KernelPlan.Step> steps, List<KernelPlan.Temporary> temporaries, List<String[]> parameters,
                                 List<Integer> indices, String name) {
        Instruction operand = kernel.instruction(root);
        int index = temporaries.size();
        temporaries.add(new KernelPlan.Temporary(operand.dtype(), Shapes.size(operand.shape())));
        steps.add(ElementwiseGenerator.prologue(kernel, segment, root, limits, constants, index));
        parameters.add(new String[] {name, CType.of(operand.dtype()).cName()});
        indices.add(index);
    }
}
