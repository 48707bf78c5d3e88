package dev.ein4j.opencl.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.ContractSpec;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Code generation without a device: which schedule is chosen, and what parameterised code shares. */
class KernelPlannerTest {

    private static final DeviceLimits GPU = new DeviceLimits(true, true, 1024, 48 * 1024, 132, 4352, true);

    private static Kernel scaledCopy(int[] shape, View view) {
        return new Kernel(List.of(DType.FLOAT32), List.of(
                Instruction.load(0, DType.FLOAT32, view),
                Instruction.constant(0, DType.FLOAT32, View.broadcastScalar(shape)),
                Instruction.apply(Op.MUL, DType.FLOAT32, shape, 0, 1)));
    }

    @Test
    void kernelsDifferingOnlyInNumbersShareParameterisedCode() {
        Kernel small = scaledCopy(new int[] {3, 4}, View.contiguous(new int[] {4, 3}).permute(new int[] {1, 0}));
        Kernel large = scaledCopy(new int[] {300, 7}, View.contiguous(new int[] {300, 9}).shrink(new int[] {0, 1}, new int[] {300, 8}));
        KernelPlan a = KernelPlanner.plan(small, GPU, false);
        KernelPlan b = KernelPlanner.plan(large, GPU, false);
        assertThat(a.steps().get(0).source()).isEqualTo(b.steps().get(0).source());
        assertThat(a.steps().get(0).parameters()).isNotEqualTo(b.steps().get(0).parameters());
        String baked = KernelPlanner.plan(small, GPU, true).steps().get(0).source();
        assertThat(baked).isNotEqualTo(KernelPlanner.plan(large, GPU, true).steps().get(0).source());
        assertThat(baked).doesNotContain("p[");
        assertThat(KernelPlanner.plan(small, GPU, true).steps().get(0).parameters()).isEmpty();
    }

    @Test
    void reductionsPickTheirScheduleBySizes() {
        assertThat(reduce(new int[] {100_000, 8}, 1).steps()).singleElement()
                .satisfies(step -> assertThat(step.what()).contains("one work item"));
        assertThat(reduce(new int[] {400, 5000}, 1).steps()).singleElement()
                .satisfies(step -> assertThat(step.what()).contains("one work group of 256"));
        assertThat(reduce(new int[] {8, 100_000}, 1).steps()).as("8 outputs do not occupy 132 compute units").hasSize(2);
        KernelPlan columns = reduce(new int[] {8192, 8192}, 0);
        assertThat(columns.steps()).as("column sums: items on neighbouring columns, each a slice of rows").hasSize(2);
        assertThat(columns.steps().get(0).what()).contains("pass 1: one work item");
        KernelPlan total = reduce(new int[] {1 << 22}, 0);
        assertThat(total.steps()).hasSize(2);
        assertThat(total.temporaries()).singleElement().satisfies(t -> assertThat(t.size()).isGreaterThan(1));
        assertThat(total.steps().get(0).what()).contains("pass 1");
        assertThat(total.steps().get(1).temporaryInputs()).containsExactly(0);
    }

    private static KernelPlan reduce(int[] shape, int axis) {
        int[] reduced = shape.clone();
        reduced[axis] = 1;
        Kernel kernel = new Kernel(List.of(DType.FLOAT32), List.of(
                Instruction.load(0, DType.FLOAT32, View.contiguous(shape)),
                Instruction.reduce(Op.SUM, DType.FLOAT32, reduced, new int[] {axis}, 0)));
        return KernelPlanner.plan(kernel, GPU, true);
    }

    @Test
    void floatMatrixProductsUseTheTiledGemmAndThinOrIntegerOnesTheGeneralKernel() {
        assertThat(matmul(128, 96, 200, DType.FLOAT32).steps()).singleElement()
                .satisfies(step -> assertThat(step.what()).contains("tiled gemm"));
        assertThat(matmul(128, 4, 200, DType.FLOAT32).steps())
                .allSatisfy(step -> assertThat(step.what()).startsWith("contract (").doesNotContain("tiled"));
        assertThat(matmul(128, 96, 200, DType.INT32).steps().get(0).source()).contains("long acc");
    }

    private static KernelPlan matmul(int m, int n, int k, DType dtype) {
        View left = View.contiguous(new int[] {m, k}).reshape(new int[] {m, 1, k});
        View right = View.contiguous(new int[] {k, n}).permute(new int[] {1, 0}).reshape(new int[] {1, n, k});
        ContractSpec spec = ContractSpec.of(new int[] {m, n, k}, new int[] {m, 1, k}, new int[] {1, n, k}, new int[] {2},
                left, right, dtype);
        Kernel kernel = new Kernel(List.of(dtype, dtype), List.of(
                Instruction.load(0, dtype, left),
                Instruction.load(1, dtype, right),
                Instruction.contract(dtype, new int[] {m, n}, spec, 0, 1)));
        return KernelPlanner.plan(kernel, GPU, true);
    }

    @Test
    void launchValuesAreKernelArgumentsInBothFormsOrOneBufferWhenTheyDoNotFit() {
        Kernel kernel = scaledCopy(new int[] {3, 4}, View.contiguous(new int[] {3, 4}));
        for (boolean baked : new boolean[] {true, false}) {
            KernelPlan plan = KernelPlanner.plan(kernel, GPU, baked);
            assertThat(plan.launch().inBuffer()).isFalse();
            assertThat(plan.launch().arguments()).containsExactly(new LaunchArguments.Argument(0, LaunchArguments.Kind.FLOAT));
            assertThat(plan.steps().get(0).source()).contains("const float arg0)").contains("const float v1 = arg0;");
        }
        DeviceLimits few = new DeviceLimits(true, true, 1024, 48 * 1024, 132, 80, true);
        KernelPlan buffered = KernelPlanner.plan(kernel, few, true);
        assertThat(buffered.launch().inBuffer()).isTrue();
        assertThat(buffered.steps().get(0).source()).contains("__global const long* restrict values)")
                .contains("const float v1 = as_float((int)values[0]);");
        DeviceLimits tiny = new DeviceLimits(true, true, 1024, 48 * 1024, 132, 16, true);
        assertThatThrownBy(() -> KernelPlanner.plan(kernel, tiny, true)).isInstanceOf(UnsupportedKernelException.class)
                .hasMessageContaining("bytes of arguments");
        assertThat(new LaunchArguments.Argument(0, LaunchArguments.Kind.FLOAT).bits(dev.ein4j.kernel.Parameters.ofConstants(0.1)))
                .isEqualTo(Float.floatToRawIntBits(0.1f));
        assertThat(new LaunchArguments.Argument(0, LaunchArguments.Kind.INT).bits(dev.ein4j.kernel.Parameters.ofConstants(-2.9)))
                .isEqualTo(-2);
        assertThat(new LaunchArguments.Argument(0, LaunchArguments.Kind.BOOL).bits(dev.ein4j.kernel.Parameters.ofConstants(Double.NaN)))
                .isEqualTo(1);
    }

    @Test
    void gathersAndScattersPlanOneLaunchWithAnErrorSlotEach() {
        int[] shape = {6, 5};
        Kernel gather = new Kernel(List.of(DType.FLOAT32, DType.INT32), List.of(
                Instruction.load(1, DType.INT32, View.contiguous(shape)),
                Instruction.gather(0, DType.FLOAT32, View.contiguous(new int[] {4, 5}).withShape(shape), 0, 4, 0),
                Instruction.load(1, DType.INT32, View.contiguous(shape)),
                Instruction.gather(0, DType.FLOAT32, View.contiguous(new int[] {4, 5}).withShape(shape), 0, 4, 2),
                Instruction.apply(Op.ADD, DType.FLOAT32, shape, 1, 3)));
        Kernel scatter = new Kernel(List.of(DType.FLOAT32, DType.INT32), List.of(
                Instruction.load(0, DType.FLOAT32, View.contiguous(shape)),
                Instruction.load(1, DType.INT32, View.contiguous(shape)),
                Instruction.scatter(DType.FLOAT32, new int[] {6, 9}, 1, true, 0, 1)));
        for (boolean baked : new boolean[] {true, false}) {
            KernelPlan gathered = KernelPlanner.plan(gather, GPU, baked);
            assertThat(gathered.indexChecks()).isEqualTo(2);
            assertThat(gathered.steps()).singleElement().satisfies(step -> assertThat(step.source())
                    .contains("__global ulong* restrict index_errors").contains("atom_min((volatile __global ulong*)(index_errors + 1)"));
            KernelPlan scattered = KernelPlanner.plan(scatter, GPU, baked);
            assertThat(scattered.indexChecks()).isEqualTo(1);
            assertThat(scattered.steps()).singleElement().satisfies(step -> {
                assertThat(step.what()).isEqualTo("scatter");
                assertThat(step.source()).contains("for (int a = 0; a < length; a++)");
            });
        }
        DeviceLimits noAtomics = new DeviceLimits(true, true, 1024, 48 * 1024, 132, 4352, false);
        assertThatThrownBy(() -> KernelPlanner.plan(scatter, noAtomics, true)).isInstanceOf(UnsupportedKernelException.class)
                .hasMessageContaining("cl_khr_int64_extended_atomics");
        assertThat(KernelPlanner.plan(scaledCopy(shape, View.contiguous(shape)), noAtomics, true).indexChecks()).isZero();
    }

    @Test
    void kernelsTooLongToBuildInReasonableTimeAreDeclined() {
        int[] shape = {2};
        java.util.List<Instruction> chain = new java.util.ArrayList<>();
        chain.add(Instruction.load(0, DType.FLOAT32, View.contiguous(shape)));
        while (chain.size() <= KernelPlanner.MAX_INSTRUCTIONS) {
            chain.add(Instruction.apply(Op.EXP, DType.FLOAT32, shape, chain.size() - 1));
        }
        Kernel kernel = new Kernel(List.of(DType.FLOAT32), chain);
        assertThatThrownBy(() -> KernelPlanner.plan(kernel, GPU, true)).isInstanceOf(UnsupportedKernelException.class)
                .hasMessageContaining("a kernel of " + (KernelPlanner.MAX_INSTRUCTIONS + 1) + " instructions");
        Kernel fits = new Kernel(List.of(DType.FLOAT32), chain.subList(0, KernelPlanner.MAX_INSTRUCTIONS));
        assertThat(KernelPlanner.plan(fits, GPU, true).steps()).hasSize(1);
    }

    @Test
    void severalReductionsKeepOneAccumulatorEachInEverySchedule() {
        for (int[] shape : new int[][] {{100_000, 8}, {400, 5000}, {8, 100_000}, {1 << 22}}) {
            int axis = shape.length - 1;
            int[] reduced = shape.clone();
            reduced[axis] = 1;
            Kernel kernel = new Kernel(List.of(DType.FLOAT32), List.of(
                    Instruction.load(0, DType.FLOAT32, View.contiguous(shape)),
                    Instruction.apply(Op.MUL, DType.FLOAT32, shape, 0, 0),
                    Instruction.reduce(Op.SUM, DType.FLOAT32, reduced, new int[] {axis}, 0),
                    Instruction.reduce(Op.REDUCE_MAX, DType.FLOAT32, reduced, new int[] {axis}, 1),
                    Instruction.apply(Op.ADD, DType.FLOAT32, reduced, 2, 3)), new int[] {2, 4, 3});
            KernelPlan plan = KernelPlanner.plan(kernel, GPU, true);
            KernelPlan.Step last = plan.steps().get(plan.steps().size() - 1);
            assertThat(last.writesOutputs()).isTrue();
            assertThat(last.source()).contains("__global float* out2").contains("acc1").contains("out1[o] = v4;");
            if (plan.steps().size() == 2) {
                assertThat(plan.temporaries()).as("one array of partials per reduction").hasSize(2);
                assertThat(plan.steps().get(0).outputTemporaries()).containsExactly(0, 1);
                assertThat(last.temporaryInputs()).containsExactly(0, 1);
            }
            if (last.what().contains("work group")) {
                assertThat(last.source()).contains("scratch0[").contains("scratch1[");
            }
        }
    }

    @Test
    void aContractionWithReplicasComputesItsProductOnceThenRunsItsEpilogueOverEveryReplica() {
        int m = 128;
        int n = 96;
        int k = 64;
        View left = View.contiguous(new int[] {m, k}).reshape(new int[] {1, m, 1, k});
        View right = View.contiguous(new int[] {n, k}).reshape(new int[] {1, 1, n, k});
        ContractSpec spec = ContractSpec.of(new int[] {5, m, n, k}, new int[] {1, m, 1, k}, new int[] {1, 1, n, k}, new int[] {3},
                left, right, DType.FLOAT32);
        Kernel kernel = new Kernel(List.of(DType.FLOAT32, DType.FLOAT32), List.of(
                Instruction.load(0, DType.FLOAT32, left),
                Instruction.load(1, DType.FLOAT32, right),
                Instruction.contract(DType.FLOAT32, new int[] {5, m, n}, spec, 0, 1)));
        KernelPlan plan = KernelPlanner.plan(kernel, GPU, true);
        assertThat(plan.steps()).extracting(KernelPlan.Step::what).containsExactly("contract (tiled gemm)", "elementwise output (replicas)");
        assertThat(plan.temporaries()).singleElement().isEqualTo(new KernelPlan.Temporary(DType.FLOAT32, 5L * m * n));
        assertThat(plan.steps().get(0).outputTemporaries()).containsExactly(0);
        assertThat(plan.steps().get(1).temporaryInputs()).containsExactly(0);
        assertThat(plan.steps().get(1).source()).contains("product[r0]");
    }

    @Test
    void floatsAreWrittenExactly() {
        assertThat(CExpressions.literal(CType.FLOAT, 0.1f)).isEqualTo("(" + Float.toHexString(0.1f) + "f)");
        assertThat(CExpressions.literal(CType.DOUBLE, Double.NEGATIVE_INFINITY)).contains("INFINITY");
        assertThat(CExpressions.literal(CType.INT, Integer.MIN_VALUE)).isEqualTo("(-2147483647-1)");
        assertThat(CExpressions.convert("x", CType.FLOAT, CType.INT)).isEqualTo("ein_f2i(x)");
        assertThat(CExpressions.convert("x", CType.DOUBLE, CType.UCHAR)).isEqualTo("(uchar)((x) != 0)");
    }
}
