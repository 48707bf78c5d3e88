package dev.ein4j.nn.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.cpu.CpuBackend;
import dev.ein4j.error.ClosedTensorException;
import dev.ein4j.nn.Activation;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Linear;
import dev.ein4j.nn.Sequential;
import dev.ein4j.nn.optim.Adam;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Memory without a garbage collector: this class runs in its own surefire execution on a JVM with
 * Epsilon, which never collects, so every buffer that is not closed deterministically (by
 * {@code close()} or a scope) stays allocated until the heap is exhausted. Each test would run out
 * of heap if buffers were released only by the cleaner safety net.
 */
class NoCollectorCheck {

    @BeforeAll
    static void requireEpsilon() {
        boolean epsilon = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .anyMatch(bean -> bean.getName().toLowerCase(java.util.Locale.ROOT).contains("epsilon"));
        assertThat(epsilon).as("this check runs on a JVM with -XX:+UseEpsilonGC (surefire execution 'no-collector')").isTrue();
    }

    @Test
    void fourHundredClosedResultsOf32MiBFitTheHeap() {
        Tensor x = Tensor.rand(new Generator(1), 8 << 20).realize(); // 32 MiB
        for (int i = 0; i < 400; i++) {
            try (Tensor y = x.mul((double) i).realize()) {
                assertThat(y.get(7)).isEqualTo((float) (x.get(7) * i), org.assertj.core.data.Offset.offset(1e-3));
            }
        }
    }

    @Test
    void fourHundredScopedResultsOf32MiBFitTooAndAKeptTensorSurvives() {
        Tensor x = Tensor.rand(new Generator(2), 8 << 20).realize();
        Tensor kept = null;
        for (int i = 0; i < 400; i++) {
            try (TensorScope step = Tensor.scope()) {
                Tensor y = x.add((double) i).realize();
                Tensor total = y.sum();
                if (i == 399) {
                    kept = step.keep(total);
                }
            }
        }
        assertThat(kept.isClosed()).isFalse();
        assertThat(kept.item()).isGreaterThan(399.0 * (8 << 20));
        kept.close();
        assertThatThrownBy(kept::item).isInstanceOf(ClosedTensorException.class).hasMessageContaining("was closed");
        kept.close(); // twice: nothing happens
    }

    /**
     * The model is small on purpose: until C2 has compiled the vector loops, the Vector API runs
     * its Java fallback, which allocates an object per vector operation (about 0.5 GB per step of a
     * 784-256-10 model at batch 128 on a 2-core machine, for a time that depends on when the
     * compiler threads get the CPU). Epsilon cannot collect that garbage, and it is not what this
     * test is about: the pool counter proves that every buffer of a step is reused.
     */
    @Test
    void aScopedTrainingLoopRunsWithoutACollector() {
        Generator generator = new Generator(3);
        Sequential model = new Sequential(new Linear(64, 32, true, generator), Activation.relu(), new Linear(32, 10, true, generator));
        Adam adam = new Adam(model.parameters(), 1e-2);
        Tensor images = Tensor.randn(generator, 32, 64).realize();
        Tensor labels = Tensor.randint(generator, 0, 10, 32).realize();
        CpuBackend cpu = (CpuBackend) Backends.current();
        double first = Double.NaN;
        double last = Double.NaN;
        long warm = 0;
        for (int step = 0; step < 100; step++) {
            try (TensorScope scope = Tensor.scope()) {
                adam.zeroGrad();
                Tensor loss = Functional.crossEntropy(model.forward(images), labels);
                loss.backward();
                adam.step();
                last = loss.item();
                first = step == 0 ? last : first;
            }
            if (step == 5) {
                warm = cpu.freshAllocations();
            }
        }
        assertThat(last).isLessThan(first / 4);
        assertThat(cpu.freshAllocations()).as("every buffer of a step comes back to the pool for the next one").isEqualTo(warm);
    }

    @Test
    void nestedScopesOnTwoThreadsRunWithoutACollector() throws Exception {
        Tensor shared = Tensor.rand(new Generator(4), 1 << 20).realize();
        Runnable work = () -> {
            for (int i = 0; i < 200; i++) {
                try (TensorScope outer = Tensor.scope()) {
                    Tensor a = shared.mul(2.0).realize();
                    try (TensorScope inner = Tensor.scope()) {
                        Tensor b = inner.keep(a.add(1.0).realize());
                        a.sub(b).realize();
                    }
                }
            }
        };
        CompletableFuture<Void> other = CompletableFuture.runAsync(work);
        work.run();
        other.get();
    }
}
