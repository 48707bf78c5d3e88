package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.backend.DeviceMemoryException;
import dev.ein4j.error.AllocationException;
import dev.ein4j.error.EinopsException;
import dev.ein4j.ir.DType;
import dev.ein4j.kernel.HostData;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Tensor;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The backend's memory: a released buffer's {@code cl_mem} is reused by the next buffer of its
 * size, even while a queued kernel still reads it (the queue is in order), the device's memory is
 * the limit (lowered by {@value OpenClBackend#MEMORY_PROPERTY}), and a buffer past it is the SPI's
 * {@link DeviceMemoryException}, which the runtime reports as an {@link AllocationException}.
 */
class DeviceMemoryTest {

    private static final long MIB = 1 << 20;

    @AfterEach
    void restore() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void theLimitIsTheDevicesGlobalMemoryUnlessConfiguredLower() {
        OpenCl.assumeAvailable();
        DeviceInfo device = DeviceSelector.select().device();
        assertThat(device.globalMemory()).isPositive();
        assertThat(OpenCl.backend().capabilities().memoryBytes())
                .isEqualTo(Math.min(device.globalMemory(), MemorySize.parse(OpenClBackend.MEMORY_PROPERTY,
                        System.getProperty(OpenClBackend.MEMORY_PROPERTY), Long.MAX_VALUE)));
        assertThat(MemorySize.parse("p", "1048576", 0)).isEqualTo(MIB);
        assertThat(MemorySize.parse("p", " 512k", 0)).isEqualTo(512 * 1024);
        assertThat(MemorySize.parse("p", "64M", 0)).isEqualTo(64 * MIB);
        assertThat(MemorySize.parse("p", "4g", 0)).isEqualTo(4L << 30);
        assertThat(MemorySize.parse("p", null, 7)).isEqualTo(7);
        for (String bad : new String[] {"lots", "-3m", "0", "12x", "99999999999g"}) {
            assertThatThrownBy(() -> MemorySize.parse(OpenClBackend.MEMORY_PROPERTY, bad, 0)).as(bad)
                    .isInstanceOf(EinopsException.class).hasMessageContaining("-Dein4j.opencl.memory=" + bad);
        }
    }

    @Test
    void aConfiguredLimitRefusesBuffersPastItAfterGivingBackWhatThePoolHolds() {
        OpenCl.assumeAvailable();
        try (OpenClBackend small = new OpenClBackend(DeviceSelector.select().device(), 3, 64 * MIB)) {
            assertThat(small.capabilities().memoryBytes()).isEqualTo(64 * MIB);
            DeviceBuffer first = small.allocate(DType.FLOAT32, 3 * MIB); // 12 MiB
            assertThatThrownBy(() -> small.allocate(DType.FLOAT32, 14 * MIB)).isInstanceOf(DeviceMemoryException.class)
                    .hasMessageContaining("exceed the limit of " + 64 * MIB);
            small.release(first);
            assertThat(small.heldBytes()).as("pooled (the pool keeps up to a quarter of the limit)").isEqualTo(12 * MIB);
            // another size: the pooled 12 MiB are released to make room for 56
            DeviceBuffer second = small.allocate(DType.FLOAT64, 7 * MIB);
            assertThat(small.heldBytes()).isEqualTo(56 * MIB);
            small.write(second, new HostData.Float64(new double[(int) (7 * MIB)]));
            assertThat(small.read(second).length()).isEqualTo(7 * MIB);
            small.release(second);
        }
    }

    @Test
    void aFullDeviceIsAnAllocationExceptionThroughTheRuntime() {
        OpenClBackend opencl = OpenCl.backend();
        long limit = opencl.capabilities().memoryBytes();
        Backends.use(OpenClBackend.NAME);
        try {
            opencl.trim();
            opencl.limitMemory(opencl.heldBytes() + 8 * MIB);
            assertThat(opencl.capabilities().memoryBytes()).isEqualTo(opencl.heldBytes() + 8 * MIB);
            Tensor fits = Tensor.arange(DType.FLOAT32, 1000).mul(2.0).realize();
            assertThat(fits.toFloatArray()[999]).isEqualTo(1998f);
            assertThatThrownBy(() -> Tensor.arange(DType.FLOAT32, (int) (4 * MIB)).mul(2.0).realize())
                    .isInstanceOf(AllocationException.class)
                    .hasMessageContaining("backend 'opencl' cannot allocate")
                    .hasMessageContaining("16.0 MiB")
                    .hasMessageContaining(OpenClBackend.MEMORY_PROPERTY);
        } finally {
            opencl.limitMemory(limit);
        }
    }

    @Test
    void aTensorClosedWhileAQueuedKernelReadsItStaysValidUntilTheKernelHasRun() {
        OpenClBackend opencl = OpenCl.backend();
        int n = 1 << 22;
        float[] data = new float[n];
        float[] other = new float[n];
        for (int i = 0; i < n; i++) {
            data[i] = (float) Math.sin(i * 0.001);
            other[i] = 1000f + i;
        }
        // a long kernel: seven transcendental functions of 4M elements, summed
        Function<Tensor, Tensor> heavy = x -> x.sin().exp().cos().exp().sin().exp().log().mul(x).sum();
        Backends.use(ReferenceBackend.NAME);
        double expected = heavy.apply(Tensor.of(data, n)).item();
        Backends.use(OpenClBackend.NAME);
        opencl.trim(); // no pooled buffer of this size but the one the tensor gives back
        Tensor x = Tensor.of(data, n);
        Tensor y = heavy.apply(x).realize(); // submitted; the device is still at it
        long pooled = opencl.pooledBytes();
        x.close();
        assertThat(opencl.pooledBytes()).as("x's memory is back in the pool").isEqualTo(pooled + 4L * n);
        long reused = opencl.reusedBuffers();
        Tensor z = Tensor.of(other, n).realize(); // takes x's memory and overwrites it, after y's kernel
        assertThat(opencl.reusedBuffers()).as("z reuses x's memory").isEqualTo(reused + 1);
        assertThat(y.item()).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-3 * (1 + Math.abs(expected))));
        assertThat(z.toFloatArray()[n - 1]).isEqualTo(other[n - 1]);
        assertThatThrownBy(x::toFloatArray).isInstanceOf(dev.ein4j.error.ClosedTensorException.class);
    }
}
