package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.ContractSpec;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Contractions with replicated output axes (in neither operand: every index along them holds the
 * same product, computed once at replica 0 and copied) against the interpreter: on the tiled GEMM
 * and on the general kernel, with the replicated axis outermost, between M and N, and innermost,
 * with and without an epilogue that differs per replica, with an operand prologue, for float and
 * integer types.
 */
class ReplicatedContractionTest {

    @AfterEach
    void restore() {
        Backends.use(ReferenceBackend.NAME);
    }

    /**
     * out = contract(left · c0 if prologue, right) over k, with r replicas at {@code position}
     * (0: [r, m, n], 1: [m, r, n], 2: [m, n, r]), then (· + bias) · c1 if epilogue.
     */
    private static Kernel replicated(int r, int m, int n, int k, int position, DType type, boolean prologue, boolean epilogue) {
        int[][] layout = switch (position) {
            case 0 -> new int[][] {{r, m, n, k}, {1, m, 1, k}, {1, 1, n, k}};
            case 1 -> new int[][] {{m, r, n, k}, {m, 1, 1, k}, {1, 1, n, k}};
            default -> new int[][] {{m, n, r, k}, {m, 1, 1, k}, {1, n, 1, k}};
        };
        int[] full = layout[0];
        View left = View.contiguous(new int[] {m, k}).reshape(layout[1]);
        View right = View.contiguous(new int[] {n, k}).reshape(layout[2]);
        ContractSpec spec = ContractSpec.of(full, layout[1], layout[2], new int[] {3}, left, right, type);
        assertThat(spec.hasReplicas()).isTrue();
        int[] out = {full[0], full[1], full[2]};
        List<Instruction> program = new ArrayList<>();
        program.add(Instruction.load(0, type, left));
        int leftOperand = 0;
        if (prologue) {
            program.add(Instruction.constant(0, type, View.broadcastScalar(layout[1])));
            program.add(Instruction.apply(Op.MUL, type, layout[1], 0, 1));
            leftOperand = 2;
        }
        program.add(Instruction.load(1, type, right));
        program.add(Instruction.contract(type, out, spec, leftOperand, program.size() - 1));
        if (epilogue) {
            int product = program.size() - 1;
            program.add(Instruction.load(2, type, View.contiguous(out)));
            program.add(Instruction.apply(Op.ADD, type, out, product, product + 1));
            program.add(Instruction.constant(1, type, View.broadcastScalar(out)));
            program.add(Instruction.apply(Op.MUL, type, out, product + 2, product + 3));
        }
        return new Kernel(epilogue ? List.of(type, type, type) : List.of(type, type), program);
    }

    private static HostData data(DType type, int length, int seed) {
        HostData data = HostData.allocate(type, length);
        for (int i = 0; i < length; i++) {
            data.set(i, ((i * 31 + seed * 17) % 13) - 6); // small integers: every sum is exact, in any order
        }
        return data;
    }

    @Test
    void replicasOfTheProductAgreeOnTheTiledGemmAndTheGeneralKernel() {
        OpenClBackend opencl = OpenCl.backend();
        long interpreted = opencl.interpretedRuns();
        int[][] sizes = {{3, 70, 40, 33}, {4, 5, 7, 9}, {2, 1, 300, 200}};
        for (int[] size : sizes) {
            for (DType type : List.of(DType.FLOAT32, DType.INT32, DType.FLOAT64)) {
                if (!opencl.capabilities().supports(type)) {
                    continue;
                }
                for (int position = 0; position < 3; position++) {
                    for (int variant = 0; variant < 4; variant++) {
                        boolean prologue = (variant & 1) != 0;
                        boolean epilogue = (variant & 2) != 0;
                        int r = size[0];
                        int m = size[1];
                        int n = size[2];
                        int k = size[3];
                        Kernel kernel = replicated(r, m, n, k, position, type, prologue, epilogue);
                        List<HostData> inputs = new ArrayList<>(List.of(data(type, m * k, 1), data(type, n * k, 2)));
                        if (epilogue) {
                            inputs.add(data(type, r * m * n, 3)); // differs per replica
                        }
                        String what = type + " " + r + " replicas at " + position + " of " + m + "x" + n + "x" + k
                                + (prologue ? ", prologue" : "") + (epilogue ? ", epilogue" : "");
                        KernelAgreement.assertIdentical(what, opencl, kernel, inputs, Parameters.ofConstants(2.0, -3.0));
                    }
                }
            }
        }
        assertThat(opencl.interpretedRuns()).as("replicated contractions on the interpreter: %s", opencl.interpretedKernels())
                .isEqualTo(interpreted);
    }

    @Test
    void operandsBroadcastAlongABatchAxisAgreeThroughTheTensorApi() {
        OpenClBackend opencl = OpenCl.backend();
        long interpreted = opencl.interpretedRuns();
        OpenCl.agree("batch broadcast in both operands", () -> Ein.einsum("b i d, b j d -> b i j",
                Tensor.randn(new Generator(1), 1, 40, 16).expand(3, 40, 16),
                Tensor.randn(new Generator(2), 1, 48, 16).expand(3, 48, 16)));
        OpenCl.agree("and a bias that differs per batch", () -> Ein.einsum("b i d, b j d -> b i j",
                Tensor.randn(new Generator(3), 1, 5, 8).expand(4, 5, 8),
                Tensor.randn(new Generator(4), 1, 6, 8).expand(4, 6, 8)).add(Tensor.randn(new Generator(5), 4, 5, 6)).relu());
        OpenCl.agree("a sum over a broadcast seed: every output the same",
                () -> Ein.einsum("i d, j d -> i j", Tensor.full(0.5, DType.FLOAT32, 7, 9), Tensor.randn(new Generator(6), 11, 9)));
        assertThat(opencl.interpretedRuns()).isEqualTo(interpreted);
    }
}
