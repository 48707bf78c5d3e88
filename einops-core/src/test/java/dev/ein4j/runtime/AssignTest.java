package dev.ein4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.error.EinopsException;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.testing.CountingBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** In-place updates of leaves: values, buffers written, and aliasing. */
class AssignTest {

    private CountingBackend counting;

    @BeforeEach
    void useCountingBackend() {
        counting = (CountingBackend) Backends.use(CountingBackend.NAME);
        counting.reset();
    }

    @AfterEach
    void restoreReference() {
        assertThat(counting.doubleReleases()).as("buffers released twice").isZero();
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void anElementwiseUpdateIsOneKernelIntoTheTargetAndAllocatesNothing() {
        Tensor w = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2).requireGrad();
        Tensor g = Tensor.of(new float[] {10, 20, 30, 40}, 2, 2);
        counting.reset();
        w.assign(w.sub(g.mul(0.1)));
        assertThat(counting.kernels()).hasSize(1);
        assertThat(counting.allocations()).isZero();
        assertThat(w.toFloatArray()).containsExactly(0f, 0f, 0f, 0f);
    }

    @Test
    void aValueReadingTheTargetElsewhereIsComputedAsideThenCopied() {
        long before = counting.liveBytes();
        Tensor w = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
        w.assign(w.flip(1).add(w));
        assertThat(w.toFloatArray()).containsExactly(4f, 4f, 4f, 10f, 10f, 10f);
        Tensor square = Tensor.of(new float[] {1, 2, 3, 4}, 2, 2);
        square.assign(square.transpose(0, 1).contiguous());
        assertThat(square.toFloatArray()).containsExactly(1f, 3f, 2f, 4f);
        assertThat(counting.liveBytes() - before).as("only the two leaves stay").isLessThanOrEqualTo((6 + 4) * 4L);
    }

    @Test
    void computedValuesAndReductionsAreCopiedIn() {
        Tensor target = Tensor.zeros(3).contiguous().realize();
        Tensor source = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3).realize();
        target.assign(source.sum(0));
        assertThat(target.toFloatArray()).containsExactly(5f, 7f, 9f);
        Tensor row = source.rearrange("a b -> b a").realize();
        Tensor other = Tensor.zeros(3, 2).contiguous().realize();
        other.assign(row);
        assertThat(other.toFloatArray()).containsExactly(1f, 4f, 2f, 5f, 3f, 6f);
        target.assign(target);
        assertThat(target.toFloatArray()).containsExactly(5f, 7f, 9f);
    }

    @Test
    void tensorsSharingTheDataSeeTheUpdateAndPendingGraphsReadTheNewValues() {
        Tensor data = Tensor.of(new float[] {1, 2}, 2);
        Tensor parameter = data.requireGrad();
        Tensor pending = parameter.mul(10);
        parameter.assign(Tensor.of(new float[] {7, 8}, 2));
        assertThat(data.toFloatArray()).containsExactly(7f, 8f);
        assertThat(pending.toFloatArray()).containsExactly(70f, 80f);
    }

    @Test
    void repeatedUpdatesKeepMemoryFlat() {
        Tensor w = Tensor.rand(new Generator(1), 64, 64).realize();
        Tensor v = Tensor.zeros(64, 64).contiguous().realize();
        w.assign(w.sub(v.mul(0.01)));
        long live = counting.liveBytes();
        for (int step = 0; step < 50; step++) {
            Tensor g = w.mul(2);
            v.assign(v.mul(0.9).add(g));
            w.assign(w.sub(v.mul(0.01)));
        }
        assertThat(counting.liveBytes()).isLessThanOrEqualTo(live);
    }

    @Test
    void onlyLeavesOfTheSameShapeAndTypeCanBeAssigned() {
        Tensor x = Tensor.of(new float[] {1, 2}, 2);
        Tensor parameter = x.requireGrad();
        assertThatThrownBy(() -> parameter.mul(2).assign(x)).isInstanceOf(EinopsException.class).hasMessageContaining("leaves");
        assertThatThrownBy(() -> Tensor.zeros(2).assign(x)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("contiguous()");
        assertThatThrownBy(() -> x.assign(Tensor.zeros(3))).isInstanceOf(EinopsException.class).hasMessageContaining("[3]");
        assertThatThrownBy(() -> x.assign(x.cast(dev.ein4j.ir.DType.FLOAT64))).isInstanceOf(EinopsException.class)
                .hasMessageContaining("float64");
        assertThatThrownBy(() -> x.assign(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("value");
    }
}
