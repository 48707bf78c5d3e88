package dev.ein4j.autograd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import org.junit.jupiter.api.Test;

/** A leaf's gradient is the leaf's: it outlives the scope of the backward pass, and goes when replaced or cleared. */
class GradientOwnershipTest {

    private static Tensor data(long seed, int... shape) {
        return Tensor.rand(new Generator(seed), shape).sub(0.5).realize();
    }

    @Test
    void aGradientBelongsToItsLeafNotToTheScopeItWasComputedIn() {
        Tensor w = data(7, 4, 4).requireGrad();
        Tensor first;
        try (TensorScope step = Tensor.scope()) {
            w.mul(w).sum().backward();
            first = w.grad();
        }
        assertThat(first.isClosed()).isFalse();
        float[] twice = first.toFloatArray();
        assertThat(twice[5]).isEqualTo(2 * w.toFloatArray()[5]);
        try (TensorScope step = Tensor.scope()) {
            w.sum().backward(); // accumulates: the old gradient is replaced and released
        }
        assertThat(first.isClosed()).as("replaced").isTrue();
        assertThat(w.grad().toFloatArray()[5]).isEqualTo(twice[5] + 1);
        Tensor second = w.grad();
        w.zeroGrad();
        assertThat(second.isClosed()).as("released by zeroGrad").isTrue();
        assertThat(w.hasGrad()).isFalse();
    }

}
