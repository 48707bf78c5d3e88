package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kernels of several outputs against the interpreter: elementwise outputs of different types, an
 * optimizer-like step writing three of its inputs in place, and reduce kernels holding several
 * reductions over one source (a batch norm's statistics) with outputs that are reductions,
 * epilogue values and an in-place running average, in each reduction schedule.
 */
class SeveralOutputsTest {

    @Test
    void elementwiseOutputsOfDifferentTypesAreEachStored() {
        OpenClBackend opencl = OpenCl.backend();
        int[] shape = {37, 29};
        View rows = View.contiguous(shape);
        List<Instruction> program = List.of(
                Instruction.load(0, DType.FLOAT32, rows),                          // %0
                Instruction.apply(Op.EXP, DType.FLOAT32, shape, 0),                // %1
                Instruction.apply(Op.CAST, DType.INT32, shape, 0),                 // %2
                Instruction.constant(0, DType.FLOAT32, View.broadcastScalar(shape)), // %3
                Instruction.apply(Op.CMPLT, DType.BOOL, shape, 0, 3),              // %4
                Instruction.apply(Op.WHERE, DType.FLOAT32, shape, 4, 0, 3));       // %5
        // outputs out of program order, the last instruction not first
        Kernel kernel = new Kernel(List.of(DType.FLOAT32), program, new int[] {2, 5, 4, 1});
        HostData x = new HostData.Float32(new float[37 * 29]);
        for (int i = 0; i < x.length(); i++) {
            x.set(i, (i % 23) * 0.5 - 5);
        }
        KernelAgreement.Results results = KernelAgreement.launch(opencl, kernel, List.of(x), Parameters.ofConstants(1.25));
        assertThat(results.actual()).extracting(HostData::dtype)
                .containsExactly(DType.INT32, DType.FLOAT32, DType.BOOL, DType.FLOAT32);
        // exp in float32 may differ by an ulp or two: compare it loosely, the rest exactly
        KernelAgreement.assertClose("exact outputs", new KernelAgreement.Results(results.expected().subList(0, 3),
                results.actual().subList(0, 3)), 0.0, kernel);
        KernelAgreement.assertClose("exp", new KernelAgreement.Results(results.expected().subList(3, 4),
                results.actual().subList(3, 4)), 1e-6, kernel);
    }

    /** Adam's update of one parameter: p, m and v read and written in place, one kernel. */
    private static Kernel adamStep(int n) {
        int[] shape = {n};
        View all = View.contiguous(shape);
        View scalar = View.broadcastScalar(shape);
        List<Instruction> program = new ArrayList<>();
        program.add(Instruction.load(0, DType.FLOAT32, all));              // %0 p
        program.add(Instruction.load(1, DType.FLOAT32, all));              // %1 g
        program.add(Instruction.load(2, DType.FLOAT32, all));              // %2 m
        program.add(Instruction.load(3, DType.FLOAT32, all));              // %3 v
        program.add(Instruction.constant(0, DType.FLOAT32, scalar));       // %4 beta1
        program.add(Instruction.apply(Op.MUL, DType.FLOAT32, shape, 2, 4));  // %5
        program.add(Instruction.constant(1, DType.FLOAT32, scalar));       // %6 1 - beta1
        program.add(Instruction.apply(Op.MUL, DType.FLOAT32, shape, 1, 6));  // %7
        program.add(Instruction.apply(Op.ADD, DType.FLOAT32, shape, 5, 7));  // %8 m'
        program.add(Instruction.constant(2, DType.FLOAT32, scalar));       // %9 beta2
        program.add(Instruction.apply(Op.MUL, DType.FLOAT32, shape, 3, 9));  // %10
        program.add(Instruction.apply(Op.MUL, DType.FLOAT32, shape, 1, 1));  // %11 g²
        program.add(Instruction.constant(3, DType.FLOAT32, scalar));       // %12 1 - beta2
        program.add(Instruction.apply(Op.MUL, DType.FLOAT32, shape, 11, 12)); // %13
        program.add(Instruction.apply(Op.ADD, DType.FLOAT32, shape, 10, 13)); // %14 v'
        program.add(Instruction.apply(Op.SQRT, DType.FLOAT32, shape, 14));   // %15
        program.add(Instruction.constant(4, DType.FLOAT32, scalar));       // %16 eps
        program.add(Instruction.apply(Op.ADD, DType.FLOAT32, shape, 15, 16)); // %17
        program.add(Instruction.apply(Op.RECIPROCAL, DType.FLOAT32, shape, 17)); // %18
        program.add(Instruction.apply(Op.MUL, DType.FLOAT32, shape, 8, 18));  // %19
        program.add(Instruction.constant(5, DType.FLOAT32, scalar));       // %20 −lr / bias correction
        program.add(Instruction.apply(Op.MUL, DType.FLOAT32, shape, 19, 20)); // %21
        program.add(Instruction.apply(Op.ADD, DType.FLOAT32, shape, 0, 21));  // %22 p'
        return new Kernel(List.of(DType.FLOAT32, DType.FLOAT32, DType.FLOAT32, DType.FLOAT32), program, new int[] {22, 8, 14});
    }

    @Test
    void anOptimizerStepWritesThreeOfItsInputsInPlace() {
        OpenClBackend opencl = OpenCl.backend();
        int n = 10_007;
        Kernel kernel = adamStep(n);
        List<HostData> inputs = new ArrayList<>();
        for (int slot = 0; slot < 4; slot++) {
            HostData data = new HostData.Float32(new float[n]);
            for (int i = 0; i < n; i++) {
                data.set(i, slot == 3 ? (i % 11) * 0.01 : Math.sin(i * (slot + 1) * 0.01));
            }
            inputs.add(data);
        }
        for (int step = 1; step <= 3; step++) {
            Parameters values = Parameters.ofConstants(0.9, 0.1, 0.999, 0.001, 1e-8, -1e-3 / (1 - Math.pow(0.9, step)));
            // outputs 0, 1, 2 are written into the buffers of inputs 0 (p), 2 (m) and 3 (v)
            KernelAgreement.assertIdentical("adam step " + step, opencl, kernel, inputs, values, 0, 2, 3);
        }
    }

    /**
     * mean, E[x²] − mean², max and a running mean updated in place, over one axis of a [rows, columns]
     * source: three reductions in one pass, outputs that are a reduction itself and epilogue values.
     */
    private static Kernel statistics(int[] shape, int axis, DType type) {
        int[] reduced = shape.clone();
        reduced[axis] = 1;
        View scalar = View.broadcastScalar(reduced);
        List<Instruction> program = new ArrayList<>();
        program.add(Instruction.load(0, type, View.contiguous(shape)));                        // %0 x
        program.add(Instruction.apply(Op.MUL, type, shape, 0, 0));                              // %1 x²
        program.add(Instruction.reduce(Op.SUM, type, reduced, new int[] {axis}, 0));            // %2 Σx
        program.add(Instruction.reduce(Op.SUM, type, reduced, new int[] {axis}, 1));            // %3 Σx²
        program.add(Instruction.reduce(Op.REDUCE_MAX, type, reduced, new int[] {axis}, 0));     // %4 max
        program.add(Instruction.constant(0, type, scalar));                                     // %5 1/n
        program.add(Instruction.apply(Op.MUL, type, reduced, 2, 5));                            // %6 mean
        program.add(Instruction.apply(Op.MUL, type, reduced, 3, 5));                            // %7 E[x²]
        program.add(Instruction.apply(Op.MUL, type, reduced, 6, 6));                            // %8
        program.add(Instruction.constant(1, type, scalar));                                     // %9 −1
        program.add(Instruction.apply(Op.MUL, type, reduced, 8, 9));                            // %10
        program.add(Instruction.apply(Op.ADD, type, reduced, 7, 10));                           // %11 variance
        program.add(Instruction.load(1, type, View.contiguous(reduced)));                      // %12 running mean
        program.add(Instruction.constant(2, type, scalar));                                     // %13 0.9
        program.add(Instruction.apply(Op.MUL, type, reduced, 12, 13));                          // %14
        program.add(Instruction.constant(3, type, scalar));                                     // %15 0.1
        program.add(Instruction.apply(Op.MUL, type, reduced, 6, 15));                           // %16
        program.add(Instruction.apply(Op.ADD, type, reduced, 14, 16));                          // %17 new running mean
        return new Kernel(List.of(type, type), program, new int[] {6, 11, 4, 17});
    }

    @Test
    void severalReductionsRunInOnePassInEverySchedule() {
        OpenClBackend opencl = OpenCl.backend();
        // item per output (short), group per output (long rows), split (few long rows),
        // item split (column sums of a tall matrix), and everything into one output
        int[][] shapes = {{4096, 8}, {64, 5000}, {2, 100_000}, {20_000, 8}, {1, 150_000}};
        int[] axes = {1, 1, 1, 0, 1};
        for (DType type : List.of(DType.FLOAT32, DType.FLOAT64)) {
            if (!opencl.capabilities().supports(type)) {
                continue;
            }
            for (int c = 0; c < shapes.length; c++) {
                int[] shape = shapes[c];
                int axis = axes[c];
                Kernel kernel = statistics(shape, axis, type);
                HostData x = HostData.allocate(type, shape[0] * shape[1]);
                for (int i = 0; i < x.length(); i++) {
                    x.set(i, Math.sin(i * 0.7) * 2 + (i % 3));
                }
                HostData running = HostData.allocate(type, shape[1 - axis]);
                for (int i = 0; i < running.length(); i++) {
                    running.set(i, i * 0.01);
                }
                Parameters values = Parameters.ofConstants(1.0 / shape[axis], -1.0, 0.9, 0.1);
                KernelAgreement.Results results = KernelAgreement.launch(opencl, kernel, List.of(x, running), values, -1, -1, -1, 1);
                // the sums run in another order than the interpreter's; the max is exact
                double tolerance = type == DType.FLOAT32 ? 2e-4 : 1e-10;
                KernelAgreement.assertClose(type + " statistics of " + Arrays.toString(shape) + " over axis " + axis, results,
                        tolerance, kernel);
                KernelAgreement.assertClose("max", new KernelAgreement.Results(results.expected().subList(2, 3),
                        results.actual().subList(2, 3)), 0.0, kernel);
            }
        }
        assertThat(opencl.interpretedKernels()).isEmpty();
    }

    @Test
    void integerAndBoolReductionsOfOneSourceShareAPass() {
        OpenClBackend opencl = OpenCl.backend();
        int[] shape = {33, 700};
        int[] reduced = {33, 1};
        Kernel kernel = new Kernel(List.of(DType.INT32), List.of(
                Instruction.load(0, DType.INT32, View.contiguous(shape)),
                Instruction.reduce(Op.SUM, DType.INT32, reduced, new int[] {1}, 0),
                Instruction.reduce(Op.REDUCE_MAX, DType.INT32, reduced, new int[] {1}, 0),
                Instruction.apply(Op.CAST, DType.BOOL, shape, 0),
                Instruction.reduce(Op.PROD, DType.BOOL, reduced, new int[] {1}, 3)), new int[] {1, 2, 4});
        HostData x = new HostData.Int32(new int[33 * 700]);
        for (int i = 0; i < x.length(); i++) {
            x.set(i, (i * 7919L) % 2001 - 1000); // zeros here and there: some rows' "all" is false
        }
        KernelAgreement.assertIdentical("int32 sum and max, bool all", opencl, kernel, List.of(x), Parameters.NONE);
    }
}
