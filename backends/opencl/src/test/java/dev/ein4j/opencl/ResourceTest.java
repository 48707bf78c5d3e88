package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backends;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Device memory stays bounded, big kernels run, and concurrent use is safe. */
class ResourceTest {

    @AfterEach
    void restore() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void tenThousandSmallKernelsCreateNoBuffersAndKeepTheLiveBufferCountFlat() {
        OpenClBackend opencl = OpenCl.backend();
        int[] shape = {16};
        Kernel kernel = new Kernel(List.of(DType.FLOAT32), List.of(
                Instruction.load(0, DType.FLOAT32, View.contiguous(shape)),
                Instruction.constant(0, DType.FLOAT32, View.broadcastScalar(shape)),
                Instruction.apply(Op.ADD, DType.FLOAT32, shape, 0, 1)));
        // a contraction with a prologue needs a temporary on every run
        Kernel contract = new Kernel(List.of(DType.FLOAT32), contractWithPrologue());
        DeviceBuffer value = opencl.allocate(DType.FLOAT32, 16);
        opencl.write(value, new HostData.Float32(new float[16]));
        long before = 0;
        long created = 0;
        int programs = 0;
        float[] expected = null; // the host's account of the last steps
        for (int step = -100; step < 10_000; step++) {
            if (step == 0) {
                // by now both kernels run baked code; their programs and parameter tables are cached
                opencl.synchronize();
                before = OpenClBuffer.liveCount();
                created = opencl.createdBuffers();
                programs = opencl.cachedPrograms();
            }
            DeviceBuffer next = opencl.allocate(DType.FLOAT32, 16);
            double added = 1.0 + Math.floorMod(step, 3); // a value that changes every step: the same programs
            boolean contracted = Math.floorMod(step, 10) == 0;
            opencl.execute(contracted ? contract : kernel, List.of(next), List.of(value), Parameters.ofConstants(added));
            if (step == 9_990) {
                expected = ((HostData.Float32) opencl.read(next)).values();
            } else if (expected != null) {
                for (int i = 0; i < expected.length; i++) {
                    expected[i] = expected[i] + (float) added;
                }
            }
            opencl.release(value);
            value = next;
            if (step >= 0 && step % 100 == 0) {
                opencl.read(value);
                assertThat(OpenClBuffer.liveCount()).as("live cl_mem objects at step %d (others may be freed by the cleaner meanwhile)", step)
                        .isLessThanOrEqualTo(before);
            }
        }
        float[] last = ((HostData.Float32) opencl.read(value)).values();
        opencl.release(value);
        assertThat(opencl.createdBuffers()).as("cl_mem objects created in steady state").isEqualTo(created);
        assertThat(opencl.cachedPrograms()).as("programs compiled in steady state").isEqualTo(programs);
        assertThat(last).as("the last nine steps added their changing values").containsExactly(expected);
        assertThat(opencl.interpretedKernels()).isEmpty();
        opencl.trim();
        assertThat(OpenClBuffer.liveCount()).isLessThanOrEqualTo(before - 1);
    }

    /** out[4,4] = exp(x[4,4]) · x[4,4], the left operand evaluated into a temporary first. */
    private static List<Instruction> contractWithPrologue() {
        int[] square = {4, 4};
        View left = View.contiguous(new int[] {4, 4, 1});
        View right = View.contiguous(square).reshape(new int[] {1, 4, 4});
        dev.ein4j.kernel.ContractSpec spec = dev.ein4j.kernel.ContractSpec.of(new int[] {4, 4, 4}, new int[] {4, 4, 1},
                new int[] {1, 4, 4}, new int[] {1}, View.contiguous(new int[] {4, 4, 1}), right, DType.FLOAT32);
        return List.of(
                Instruction.load(0, DType.FLOAT32, left),
                Instruction.apply(Op.EXP, DType.FLOAT32, new int[] {4, 4, 1}, 0),
                Instruction.load(0, DType.FLOAT32, right),
                Instruction.contract(DType.FLOAT32, new int[] {16}, spec, 1, 2));
    }

    @Test
    void anElementwiseKernelOfMoreThan2To24ElementsRuns() {
        OpenCl.assumeAvailable();
        Backends.use(OpenClBackend.NAME);
        int n = (1 << 24) + 1001;
        Tensor x = Tensor.arange(DType.FLOAT32, n).mul(2.0).add(1.0);
        float[] values = x.toFloatArray();
        assertThat(values).hasSize(n);
        for (int i : new int[] {0, 1, 12345, n / 2, n - 2, n - 1}) {
            assertThat(values[i]).as("element %d", i).isEqualTo((float) i * 2f + 1f);
        }
    }

    @Test
    void concurrentRealizationsFromSeveralThreadsAgree() throws Exception {
        OpenCl.assumeAvailable();
        Backends.use(OpenClBackend.NAME);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Double>> sums = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                int length = 1000 + t % 4;
                sums.add(pool.submit(() -> {
                    double total = 0;
                    for (int round = 0; round < 20; round++) {
                        total += Tensor.arange(DType.FLOAT32, length).mul(2.0).sum().toDoubleArray()[0];
                    }
                    return total;
                }));
            }
            for (int t = 0; t < 16; t++) {
                int length = 1000 + t % 4;
                assertThat(sums.get(t).get()).isEqualTo(20.0 * length * (length - 1));
            }
        } finally {
            pool.shutdown();
        }
    }
}
