package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Buffers, device choice, capabilities and error reporting. */
class OpenClBackendTest {

    @Test
    void theProviderIsAvailableWithAPriorityByDeviceKind() {
        OpenClBackend opencl = OpenCl.backend();
        OpenClBackendProvider provider = new OpenClBackendProvider();
        assertThat(provider.isAvailable()).isTrue();
        assertThat(provider.name()).isEqualTo("opencl");
        assertThat(provider.priority()).isEqualTo(opencl.isGpu() ? 20 : 5);
        assertThat(Backends.available()).contains("opencl");
        assertThat(opencl.device()).isNotBlank();
        assertThat(opencl.capabilities().asynchronous()).isTrue();
        assertThat(opencl.capabilities().dtypes()).contains(DType.FLOAT32, DType.INT32, DType.BOOL);
        assertThat(opencl.capabilities().maxBufferElements()).isPositive().isLessThanOrEqualTo(Integer.MAX_VALUE - 8);
        assertThat(opencl.requiresRelease()).isTrue();
    }

    @Test
    void anOverrideChoosesByIndexOrNameAndANameMatchingNothingIsUnavailable() {
        OpenCl.assumeAvailable();
        DeviceSelector.Selection chosen = DeviceSelector.select(null);
        DeviceInfo device = chosen.device();
        DeviceSelector.Selection byIndex = DeviceSelector.select(device.platformIndex() + ":" + device.deviceIndex());
        assertThat(byIndex.device().deviceName()).isEqualTo(device.deviceName());
        DeviceSelector.Selection byName = DeviceSelector.select(device.deviceName().substring(0, 3).toUpperCase());
        assertThat(byName.device()).isNotNull();
        DeviceSelector.Selection none = DeviceSelector.select("no such device anywhere");
        assertThat(none.device()).isNull();
        assertThat(none.problem()).contains("no such device anywhere").contains(device.deviceName());
        boolean anyGpu = chosen.all().stream().anyMatch(DeviceInfo::isGpuOrAccelerator);
        assertThat(device.isGpuOrAccelerator()).as("a GPU is chosen first when there is one").isEqualTo(anyGpu);
    }

    @Test
    void inPlaceUpdatesReadEachElementBeforeWritingIt() {
        OpenCl.backend();
        dev.ein4j.backend.Backend previous = Backends.current();
        Backends.use("opencl");
        try {
            int n = 10_007;
            float[] start = new float[n];
            float[] step = new float[n];
            for (int i = 0; i < n; i++) {
                start[i] = i * 0.5f;
                step[i] = (i % 7) - 3;
            }
            dev.ein4j.tensor.Tensor w = dev.ein4j.tensor.Tensor.of(start, n);
            dev.ein4j.tensor.Tensor g = dev.ein4j.tensor.Tensor.of(step, n);
            w.assign(w.sub(g.mul(0.25)));      // one kernel writing w, reading w at the same element
            w.assign(w.flip(0).add(w));        // reads w elsewhere: computed aside, then copied
            float[] got = w.toFloatArray();
            for (int i = 0; i < n; i++) {
                int j = n - 1 - i;
                float expected = (start[j] - step[j] * 0.25f) + (start[i] - step[i] * 0.25f);
                assertThat(got[i]).as("element %d", i).isEqualTo(expected);
            }
        } finally {
            Backends.use(previous.name());
        }
    }

    @Test
    void buffersOfEveryTypeRoundTrip() {
        OpenClBackend opencl = OpenCl.backend();
        List<HostData> samples = List.of(
                new HostData.Float32(new float[] {1.5f, -2f, Float.NaN, Float.NEGATIVE_INFINITY, -0f, Float.MIN_VALUE}),
                new HostData.Int32(new int[] {Integer.MIN_VALUE, -1, 0, 7, Integer.MAX_VALUE}),
                new HostData.Bool(new byte[] {1, 0, 0, 1, 1}),
                new HostData.Float64(new double[] {Math.PI, -0.0, Double.MAX_VALUE, Double.MIN_VALUE}));
        for (HostData sample : samples) {
            if (!opencl.capabilities().supports(sample.dtype())) {
                continue;
            }
            DeviceBuffer buffer = opencl.allocate(sample.dtype(), sample.length());
            opencl.write(buffer, sample);
            HostData back = opencl.read(buffer);
            assertThat(back.dtype()).isEqualTo(sample.dtype());
            for (int i = 0; i < sample.length(); i++) {
                assertThat(Double.doubleToRawLongBits(back.get(i))).as("%s element %d", sample.dtype(), i)
                        .isEqualTo(Double.doubleToRawLongBits(sample.get(i)));
            }
            opencl.release(buffer);
        }
    }

    @Test
    void writesConvertHostDataOfAnotherTypeAndBigWritesBlock() {
        OpenClBackend opencl = OpenCl.backend();
        DeviceBuffer ints = opencl.allocate(DType.INT32, 3);
        opencl.write(ints, new HostData.Float32(new float[] {1.9f, -2.5f, Float.NaN}));
        assertThat(((HostData.Int32) opencl.read(ints)).values()).containsExactly(1, -2, 0);
        opencl.release(ints);
        int length = (int) (DeviceQueue.ASYNC_WRITE_LIMIT / 4) + 5;
        float[] values = new float[length];
        values[length - 1] = 3f;
        DeviceBuffer big = opencl.allocate(DType.FLOAT32, length);
        opencl.write(big, new HostData.Float32(values));
        assertThat(((HostData.Float32) opencl.read(big)).values()[length - 1]).isEqualTo(3f);
        opencl.release(big);
    }

    @Test
    void asynchronousWritesHoldTheirHostCopyOnlyUntilARead() {
        OpenClBackend opencl = OpenCl.backend();
        float[] values = {1f, 2f, 3f};
        DeviceBuffer buffer = opencl.allocate(DType.FLOAT32, 3);
        opencl.write(buffer, new HostData.Float32(values));
        values[0] = 99f; // the write copied the array: changing it afterwards changes nothing
        assertThat(((HostData.Float32) opencl.read(buffer)).values()).containsExactly(1f, 2f, 3f);
        assertThat(opencl.pendingWrites()).isZero();
        opencl.release(buffer);
    }

    @Test
    void releaseIsIdempotentAndAReleasedBufferCannotBeUsedEvenWhenItsMemoryIsReused() {
        OpenClBackend opencl = OpenCl.backend();
        opencl.trim();
        long live = OpenClBuffer.liveCount();
        DeviceBuffer buffer = opencl.allocate(DType.FLOAT32, 4099);
        assertThat(OpenClBuffer.liveCount()).isEqualTo(live + 1);
        opencl.release(buffer);
        opencl.release(buffer);
        assertThat(OpenClBuffer.liveCount()).as("the released cl_mem is pooled, not released").isEqualTo(live + 1);
        assertThatThrownBy(() -> opencl.read(buffer)).isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
        long reused = opencl.reusedBuffers();
        DeviceBuffer again = opencl.allocate(DType.INT32, 4099); // the same bytes, another type
        assertThat(opencl.reusedBuffers()).isEqualTo(reused + 1);
        assertThat(OpenClBuffer.liveCount()).isEqualTo(live + 1);
        assertThatThrownBy(() -> opencl.read(buffer)).as("the old handle stays released").isInstanceOf(IllegalStateException.class);
        opencl.write(again, new HostData.Int32(new int[4099]));
        assertThat(opencl.read(again).length()).isEqualTo(4099);
        opencl.release(again);
        opencl.trim();
        assertThat(OpenClBuffer.liveCount()).as("trim releases what the pool held").isEqualTo(live);
    }

    @Test
    void zeroSizeBuffersWorkEverywhere() {
        OpenClBackend opencl = OpenCl.backend();
        for (DType dtype : List.of(DType.FLOAT32, DType.INT32, DType.BOOL)) {
            DeviceBuffer empty = opencl.allocate(dtype, 0);
            assertThat(empty.size()).isZero();
            opencl.write(empty, HostData.allocate(dtype, 0));
            assertThat(opencl.read(empty).length()).isZero();
            Kernel copy = Kernel.copy(dtype, View.contiguous(new int[] {0, 3}), dtype);
            DeviceBuffer out = opencl.allocate(dtype, 0);
            opencl.execute(copy, List.of(out), List.of(empty), Parameters.NONE);
            assertThat(opencl.read(out).length()).isZero();
            opencl.release(out);
            opencl.release(empty);
        }
        // a sum over an empty axis is the identity, written to a non-empty output
        Kernel sum = new Kernel(List.of(DType.FLOAT32), List.of(
                Instruction.load(0, DType.FLOAT32, View.contiguous(new int[] {3, 0})),
                Instruction.reduce(Op.SUM, DType.FLOAT32, new int[] {3, 1}, new int[] {1}, 0)));
        DeviceBuffer empty = opencl.allocate(DType.FLOAT32, 0);
        DeviceBuffer out = opencl.allocate(DType.FLOAT32, 3);
        opencl.execute(sum, List.of(out), List.of(empty), Parameters.NONE);
        assertThat(((HostData.Float32) opencl.read(out)).values()).containsExactly(0f, 0f, 0f);
        opencl.release(out);
        opencl.release(empty);
    }

    @Test
    void allocationsBeyondTheLimitAreRejected() {
        OpenClBackend opencl = OpenCl.backend();
        assertThatThrownBy(() -> opencl.allocate(DType.FLOAT32, Long.MAX_VALUE)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("cannot allocate");
        assertThatThrownBy(() -> opencl.allocate(DType.FLOAT32, -1)).isInstanceOf(EinopsException.class);
    }

    @Test
    void aProgramThatDoesNotBuildReportsTheBuildLogAndTheSource() {
        OpenClBackend opencl = OpenCl.backend();
        String broken = "__kernel void broken(__global float* out) { out[0] = undeclared_name_xyz + 1.0f; }";
        assertThatThrownBy(() -> opencl.compile(broken, "broken")).isInstanceOf(EinopsException.class)
                .hasMessageContaining("build log").hasMessageContaining("undeclared_name_xyz")
                .hasMessageContaining("--- source ---");
    }

    @Test
    void aDeviceWithoutFloat64RefusesFloat64NamingTheDevice() {
        OpenCl.assumeAvailable();
        DeviceInfo real = DeviceSelector.select().device();
        try (OpenClBackend single = new OpenClBackend(real.withoutFloat64())) {
            assertThat(single.capabilities().supports(DType.FLOAT64)).isFalse();
            assertThatThrownBy(() -> single.allocate(DType.FLOAT64, 3)).isInstanceOf(EinopsException.class)
                    .hasMessageContaining(real.deviceName()).hasMessageContaining("float64");
            Kernel kernel = Kernel.copy(DType.FLOAT32, View.contiguous(new int[] {2}), DType.FLOAT64);
            DeviceBuffer in = single.allocate(DType.FLOAT32, 2);
            assertThatThrownBy(() -> single.execute(kernel, List.of(in), List.of(in), Parameters.NONE)).isInstanceOf(EinopsException.class)
                    .hasMessageContaining("float64");
            single.release(in);
            // float32 still compiles without the fp64 preamble
            DeviceBuffer out = single.allocate(DType.FLOAT32, 2);
            DeviceBuffer source = single.allocate(DType.FLOAT32, 2);
            single.write(source, new HostData.Float32(new float[] {4f, 9f}));
            single.execute(new Kernel(List.of(DType.FLOAT32), List.of(
                    Instruction.load(0, DType.FLOAT32, View.contiguous(new int[] {2})),
                    Instruction.apply(Op.SQRT, DType.FLOAT32, new int[] {2}, 0))), List.of(out), List.of(source), Parameters.NONE);
            assertThat(((HostData.Float32) single.read(out)).values()).containsExactly(2f, 3f);
            single.release(out);
            single.release(source);
        }
    }

    @Test
    void buffersOfTheWrongTypeOrSizeAreRejectedBeforeAnythingRuns() {
        OpenClBackend opencl = OpenCl.backend();
        Kernel copy = Kernel.copy(DType.FLOAT32, View.contiguous(new int[] {4}), DType.FLOAT32);
        DeviceBuffer four = opencl.allocate(DType.FLOAT32, 4);
        DeviceBuffer three = opencl.allocate(DType.FLOAT32, 3);
        DeviceBuffer ints = opencl.allocate(DType.INT32, 4);
        assertThatThrownBy(() -> opencl.execute(copy, List.of(three), List.of(four), Parameters.NONE))
                .isInstanceOf(EinopsException.class).hasMessageContaining("output");
        assertThatThrownBy(() -> opencl.execute(copy, List.of(four), List.of(ints), Parameters.NONE))
                .isInstanceOf(EinopsException.class).hasMessageContaining("input 0");
        assertThatThrownBy(() -> opencl.execute(copy, List.of(four), List.of(), Parameters.NONE))
                .isInstanceOf(EinopsException.class).hasMessageContaining("inputs");
        assertThatThrownBy(() -> opencl.execute(copy, List.of(four, four), List.of(four), Parameters.NONE))
                .isInstanceOf(EinopsException.class).hasMessageContaining("1 outputs was given 2");
        Kernel scaled = new Kernel(List.of(DType.FLOAT32), List.of(
                Instruction.load(0, DType.FLOAT32, View.contiguous(new int[] {4})),
                Instruction.constant(0, DType.FLOAT32, View.broadcastScalar(new int[] {4})),
                Instruction.apply(Op.MUL, DType.FLOAT32, new int[] {4}, 0, 1)));
        assertThatThrownBy(() -> opencl.execute(scaled, List.of(four), List.of(four), Parameters.NONE))
                .isInstanceOf(EinopsException.class).hasMessageContaining("reading 1 parameters was given 0");
        List.of(four, three, ints).forEach(opencl::release);
    }

    @Test
    void buffersOfAnotherBackendAreRejected() {
        OpenClBackend opencl = OpenCl.backend();
        DeviceBuffer foreign = new dev.ein4j.reference.ReferenceBackend().allocate(DType.FLOAT32, 2);
        assertThatThrownBy(() -> opencl.read(foreign)).isInstanceOf(EinopsException.class).hasMessageContaining("another backend");
    }
}
