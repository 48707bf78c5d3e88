package dev.ein4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.error.ClosedTensorException;
import dev.ein4j.error.EinopsException;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import dev.ein4j.testing.CountingBackend;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who owns a buffer and when it goes back: closed tensors, views sharing storage, scopes (nested,
 * kept tensors, per thread). (Gradients owned by their leaves: autograd's GradientOwnershipTest.) The counting backend records each
 * release and fails on use after release or a double release.
 */
class OwnershipTest {

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

    private static Tensor data(long seed, int... shape) {
        return Tensor.rand(new Generator(seed), shape).sub(0.5).realize();
    }

    @Test
    void closingAComputedTensorReleasesItsBufferAtOnceAndReadingItIsAClearError() {
        Tensor x = data(1, 64, 64);
        Tensor y = x.mul(2.0).realize();
        DeviceBuffer buffer = Results.get(dev.ein4j.tensor.internal.TensorInternals.node(y)).storage().buffer();
        y.close();
        assertThat(counting.releasedBy(buffer)).as("released by close, on this thread").isEqualTo(Thread.currentThread());
        assertThat(y.isClosed()).isTrue();
        assertThatThrownBy(y::toFloatArray).isInstanceOf(ClosedTensorException.class)
                .hasMessageStartingWith("tensor float32[64, 64] was closed");
        assertThatThrownBy(() -> y.add(1.0)).isInstanceOf(ClosedTensorException.class).hasMessageContaining("add cannot use it");
        y.close(); // a second close does nothing
        assertThat(counting.doubleReleases()).isZero();
    }

    @Test
    void realizedViewsShareTheirStorageAndKeepItUntilTheLastIsClosed() {
        Tensor x = data(2, 4, 6);
        Tensor view = x.rearrange("a b -> b a").realize();
        Tensor slice = x.slice(1, 2, 4).realize();
        Tensor lazy = x.rearrange("a b -> (a b)");
        DeviceBuffer buffer = Results.get(dev.ein4j.tensor.internal.TensorInternals.node(x)).storage().buffer();
        assertThat(counting.allocations()).as("views of computed data share its buffer: no copies").isEqualTo(2);
        float[] expected = x.toFloatArray();
        long live = counting.liveBytes();
        assertThat(x.slice(0, 1, 2).toFloatArray()).as("a view read without being kept").containsExactly(
                java.util.Arrays.copyOfRange(expected, 6, 12));
        assertThat(counting.liveBytes()).isEqualTo(live);
        x.close();
        assertThatThrownBy(lazy::toFloatArray).as("a view never computed needs x").isInstanceOf(ClosedTensorException.class);
        assertThat(counting.releasedBy(buffer)).as("the views still read it").isNull();
        assertThat(view.toFloatArray()[1]).isEqualTo(expected[6]);
        view.close();
        assertThat(counting.releasedBy(buffer)).isNull();
        assertThat(slice.toFloatArray()[0]).isEqualTo(expected[2]);
        slice.close();
        assertThat(counting.releasedBy(buffer)).as("the last view closed").isNotNull();
    }

    @Test
    void aScopeClosesWhatWasMadeInItAndKeepsWhatIsKept() {
        Tensor outside = data(3, 8, 8);
        Tensor kept;
        Tensor lost;
        counting.reset(); // from here on, what is allocated is counted until it is released
        try (TensorScope scope = Tensor.scope()) {
            Tensor h = outside.mul(outside).relu().realize();
            lost = h.add(1.0).realize();
            kept = scope.keep(h.sum());
            assertThat(Results.isRealized(dev.ein4j.tensor.internal.TensorInternals.node(kept))).as("not computed yet").isFalse();
        }
        assertThat(lost.isClosed()).isTrue();
        assertThatThrownBy(lost::toFloatArray).isInstanceOf(ClosedTensorException.class);
        assertThat(kept.isClosed()).isFalse();
        float[] values = outside.toFloatArray();
        double expected = 0;
        for (float v : values) {
            expected += Math.max(0, v * v);
        }
        assertThat(kept.item()).as("a kept tensor is computed when its scope closes").isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(outside.toFloatArray()).as("made before the scope: untouched").isEqualTo(values);
        kept.close();
        assertThat(counting.liveSinceReset()).as("everything the scope made is back").isZero();
    }

    @Test
    void scopesNestAndKeepMovesATensorToTheEnclosingScope() {
        Tensor x = data(4, 16);
        Tensor movedOut;
        try (TensorScope outer = Tensor.scope()) {
            Tensor inOuter;
            try (TensorScope inner = Tensor.scope()) {
                inOuter = inner.keep(x.exp().realize());
                Tensor dropped = x.log().realize();
                inner.close();
                assertThat(dropped.isClosed()).isTrue();
            }
            assertThat(inOuter.isClosed()).as("kept by the inner scope: the outer one owns it now").isFalse();
            movedOut = inOuter;
        }
        assertThat(movedOut.isClosed()).as("the outer scope closed it").isTrue();
    }

    @Test
    void closingAnOuterScopeClosesTheScopesOpenedInside() {
        Tensor x = data(5, 16);
        TensorScope outer = Tensor.scope();
        TensorScope inner = Tensor.scope();
        Tensor made = x.neg().realize();
        outer.close();
        assertThat(inner.isClosed()).isTrue();
        assertThat(made.isClosed()).isTrue();
        Tensor after = x.neg().realize();
        assertThat(after.isClosed()).as("no scope is open any more").isFalse();
    }

    @Test
    void scopesBelongToTheirThread() throws Exception {
        Tensor x = data(6, 32);
        TensorScope mine = Tensor.scope();
        AtomicReference<Tensor> other = new AtomicReference<>();
        CompletableFuture.runAsync(() -> {
            Backends.use(CountingBackend.NAME);
            try (TensorScope theirs = Tensor.scope()) {
                other.set(theirs.keep(x.mul(3.0).realize()));
            }
        }).get();
        Tensor made = x.mul(2.0).realize();
        assertThatThrownBy(() -> CompletableFuture.runAsync(mine::close).join())
                .hasCauseInstanceOf(EinopsException.class).hasMessageContaining("belongs to the thread");
        mine.close();
        assertThat(made.isClosed()).isTrue();
        assertThat(other.get().isClosed()).as("made in another thread's scope").isFalse();
        assertThat(other.get().toFloatArray()[3]).isEqualTo(x.toFloatArray()[3] * 3);
    }

    @Test
    void aTensorClosedBeforeAPendingGraphIsComputedMakesThatGraphFailClearly() {
        Tensor x = data(8, 8);
        Tensor pending = x.mul(2.0);
        x.close();
        assertThatThrownBy(pending::realize).isInstanceOf(ClosedTensorException.class).hasMessageContaining("float32[8] was closed");
    }

    @Test
    void theMovementsAPatternMakesOfItsOperandsKeepNothingAlive() {
        Tensor x = data(10, 32, 16);
        Tensor w = data(11, 8, 16);
        DeviceBuffer buffer = Results.get(dev.ein4j.tensor.internal.TensorInternals.node(x)).storage().buffer();
        Tensor y = dev.ein4j.tensor.Ein.einsum("b i, o i -> b o", x.rearrange("b i -> b i"), w).realize();
        x.close();
        assertThat(counting.releasedBy(buffer)).as("closing x releases it: the lowering's views were never realized").isNotNull();
        assertThat(y.shape()).containsExactly(32, 8);
    }

    @Test
    void aLoopOfClosedResultsReleasesEachResultWhenItIsClosed() {
        Tensor x = data(9, 256, 256);
        for (int i = 0; i < 50; i++) {
            DeviceBuffer buffer;
            try (Tensor y = x.mul((double) i).exp().realize()) {
                assertThat(y.toFloatArray()[0]).isEqualTo((float) Math.exp((float) (x.toFloatArray()[0] * (float) i)));
                buffer = Results.get(dev.ein4j.tensor.internal.TensorInternals.node(y)).storage().buffer();
            }
            assertThat(counting.releasedBy(buffer)).as("iteration " + i).isEqualTo(Thread.currentThread());
        }
    }
}
