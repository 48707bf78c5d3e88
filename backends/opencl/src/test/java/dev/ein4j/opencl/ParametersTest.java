package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.ContractSpec;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * CONST values and RAND seeds are launch parameters: one kernel run with different values gives
 * the interpreter's results for each, bit for bit, and compiles nothing new once warm (its
 * parameterised and baked programs are made in its first runs, whatever the values).
 */
class ParametersTest {

    private static final int N = 1000;

    /** x·c0 + c1 in float32, c2 in float64, int32 and bool constants, and a RAND draw, all from parameters. */
    private static Kernel everyKind() {
        int[] shape = {N};
        View scalar = View.broadcastScalar(shape);
        List<Instruction> program = new ArrayList<>();
        program.add(Instruction.load(0, DType.FLOAT32, View.contiguous(shape)));          // %0
        program.add(Instruction.constant(0, DType.FLOAT32, scalar));                     // %1
        program.add(Instruction.apply(Op.MUL, DType.FLOAT32, shape, 0, 1));               // %2
        program.add(Instruction.constant(1, DType.FLOAT32, scalar));                     // %3
        program.add(Instruction.apply(Op.ADD, DType.FLOAT32, shape, 2, 3));               // %4
        program.add(Instruction.constant(2, DType.FLOAT64, View.broadcastScalar(new int[] {N - 10}).pad(
                new int[] {4}, new int[] {6}, -2.0)));                                    // %5: the value inside, −2 in the pad
        program.add(Instruction.apply(Op.CAST, DType.FLOAT64, shape, 4));                 // %6
        program.add(Instruction.apply(Op.MUL, DType.FLOAT64, shape, 6, 5));               // %7
        program.add(Instruction.constant(3, DType.INT32, scalar));                       // %8
        program.add(Instruction.iota(DType.INT32, View.contiguous(shape)));               // %9
        program.add(Instruction.apply(Op.MUL, DType.INT32, shape, 8, 9));                 // %10
        program.add(Instruction.apply(Op.CAST, DType.FLOAT64, shape, 10));                // %11
        program.add(Instruction.random(4, DType.FLOAT64, View.contiguous(shape)));        // %12
        program.add(Instruction.apply(Op.ADD, DType.FLOAT64, shape, 11, 12));             // %13
        program.add(Instruction.constant(5, DType.BOOL, scalar));                        // %14
        program.add(Instruction.apply(Op.WHERE, DType.FLOAT64, shape, 14, 7, 13));        // %15
        return new Kernel(List.of(DType.FLOAT32), program);
    }

    private static Parameters values(int run) {
        Parameters.Builder builder = Parameters.builder();
        builder.constant(0.5 + run);          // scale
        builder.constant(-3.25 * run);        // shift
        builder.constant(1.0 / (run + 3));    // a float64 constant, not representable in float32
        builder.constant(2.9 - run);          // int32: truncated toward zero
        builder.seed(1000L * run - 7);        // RAND seed
        builder.constant(run % 2);            // bool: chooses the WHERE's branch
        return builder.build();
    }

    @Test
    void oneKernelWithChangingValuesGivesEachRunsResultsAndCompilesOnlyWhileWarmingUp() {
        OpenClBackend opencl = OpenCl.backend();
        Kernel kernel = everyKind();
        HostData x = new HostData.Float32(new float[N]);
        for (int i = 0; i < N; i++) {
            x.set(i, (i - 500) * 0.37);
        }
        runTimes(opencl, "every kind of parameter", kernel, List.of(x), ParametersTest::values);
    }

    @Test
    void parametersInReduceProloguesAndEpiloguesAndInContractionsAreLaunchValuesToo() {
        OpenClBackend opencl = OpenCl.backend();
        int[] source = {64, 300};
        int[] reduced = {64, 1};
        Kernel reduce = new Kernel(List.of(DType.FLOAT32), List.of(
                Instruction.load(0, DType.FLOAT32, View.contiguous(source)),
                Instruction.constant(0, DType.FLOAT32, View.broadcastScalar(source)),
                Instruction.apply(Op.MAX, DType.FLOAT32, source, 0, 1),
                Instruction.reduce(Op.SUM, DType.FLOAT32, reduced, new int[] {1}, 2),
                Instruction.constant(1, DType.FLOAT32, View.broadcastScalar(reduced)),
                Instruction.apply(Op.MUL, DType.FLOAT32, reduced, 3, 4)));
        HostData x = new HostData.Float32(new float[64 * 300]);
        for (int i = 0; i < x.length(); i++) {
            x.set(i, (i % 9 - 4) * 0.25); // quarters: every sum is exact in float32, in any order
        }
        runTimes(opencl, "reduce", reduce, List.of(x), run -> Parameters.ofConstants(run * 0.25 - 1, 1.0 / (run + 1)));

        int m = 40;
        int n = 48;
        int k = 16;
        View left = View.contiguous(new int[] {m, k}).reshape(new int[] {m, 1, k});
        View right = View.contiguous(new int[] {n, k}).reshape(new int[] {1, n, k});
        ContractSpec spec = ContractSpec.of(new int[] {m, n, k}, new int[] {m, 1, k}, new int[] {1, n, k}, new int[] {2},
                left, right, DType.FLOAT32);
        List<Instruction> program = new ArrayList<>(List.of(
                Instruction.load(0, DType.FLOAT32, left),
                Instruction.constant(0, DType.FLOAT32, View.broadcastScalar(new int[] {m, 1, k})),
                Instruction.apply(Op.MUL, DType.FLOAT32, new int[] {m, 1, k}, 0, 1),
                Instruction.load(1, DType.FLOAT32, right),
                Instruction.contract(DType.FLOAT32, new int[] {m, n}, spec, 2, 3)));
        // an epilogue of twelve more parameters: the tiled GEMM's own variables (c00 .. c33) must not hide them
        for (int slot = 1; slot <= 12; slot++) {
            int previous = program.size() - 1;
            program.add(Instruction.constant(slot, DType.FLOAT32, View.broadcastScalar(new int[] {m, n})));
            program.add(Instruction.apply(slot % 2 == 0 ? Op.ADD : Op.MAX, DType.FLOAT32, new int[] {m, n}, previous, previous + 1));
        }
        Kernel contract = new Kernel(List.of(DType.FLOAT32, DType.FLOAT32), program);
        HostData a = new HostData.Float32(new float[m * k]);
        HostData b = new HostData.Float32(new float[n * k]);
        for (int i = 0; i < a.length(); i++) {
            a.set(i, (i % 7) - 3);
        }
        for (int i = 0; i < b.length(); i++) {
            b.set(i, (i % 5) * 0.5);
        }
        // small integers times a power of two: every sum is exact in any order
        runTimes(opencl, "contraction", contract, List.of(a, b), run -> {
            double[] constants = new double[13];
            constants[0] = Math.scalb(1.0, run - 3);
            for (int slot = 1; slot <= 12; slot++) {
                constants[slot] = (slot * 7 + run) % 11 - 5;
            }
            return Parameters.ofConstants(constants);
        });
    }

    @Test
    void moreValuesThanTheDeviceTakesAsArgumentsTravelInABuffer() {
        OpenClBackend opencl = OpenCl.backend();
        int[] shape = {500};
        int slots = 300; // 1,200 bytes of float arguments: more than the 1,024 a device may allow
        List<Instruction> program = new ArrayList<>();
        program.add(Instruction.load(0, DType.FLOAT32, View.contiguous(shape)));
        for (int slot = 0; slot < slots; slot++) {
            int previous = program.size() - 1;
            program.add(Instruction.constant(slot, DType.FLOAT32, View.broadcastScalar(shape)));
            program.add(Instruction.apply(slot % 3 == 0 ? Op.MUL : Op.ADD, DType.FLOAT32, shape, previous, previous + 1));
        }
        program.add(Instruction.random(slots, DType.FLOAT32, View.contiguous(shape)));
        program.add(Instruction.apply(Op.ADD, DType.FLOAT32, shape, program.size() - 2, program.size() - 1));
        Kernel kernel = new Kernel(List.of(DType.FLOAT32), program);
        HostData x = new HostData.Float32(new float[500]);
        for (int i = 0; i < 500; i++) {
            x.set(i, i * 0.01 - 2);
        }
        runTimes(opencl, "three hundred parameters", kernel, List.of(x), run -> {
            Parameters.Builder builder = Parameters.builder();
            for (int slot = 0; slot < slots; slot++) {
                builder.constant(slot % 3 == 0 ? 1.0 + (run - slot % 5) * 0.001 : (slot % 7 - 3) * 0.125 + run);
            }
            builder.seed(run * 31L);
            return builder.build();
        });
    }

    /**
     * Runs a kernel twelve times with twelve sets of values, checking each against the interpreter;
     * the caches may grow in the first runs (parameterised code, then baked code from the
     * specializeAfter-th run), never after.
     */
    private static void runTimes(OpenClBackend opencl, String what, Kernel kernel, List<HostData> inputs,
                                 IntFunction<Parameters> values) {
        int warm = Math.max(OpenClBackend.DEFAULT_SPECIALIZE_AFTER, Integer.getInteger(OpenClBackend.SPECIALIZE_PROPERTY, 1));
        int programs = -1;
        int kernels = -1;
        long interpreted = opencl.interpretedRuns();
        for (int run = 0; run < 12; run++) {
            KernelAgreement.assertIdentical(what + " run " + run, opencl, kernel, inputs, values.apply(run));
            if (run == warm) {
                programs = opencl.cachedPrograms();
                kernels = opencl.knownKernels();
            } else if (run > warm) {
                assertThat(opencl.cachedPrograms()).as("%s: programs after run %d", what, run).isEqualTo(programs);
                assertThat(opencl.knownKernels()).as("%s: kernels after run %d", what, run).isEqualTo(kernels);
            }
        }
        assertThat(opencl.interpretedRuns()).as("%s ran on the interpreter: %s", what, opencl.interpretedKernels())
                .isEqualTo(interpreted);
    }
}
