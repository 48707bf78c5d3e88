package dev.ein4j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Axes;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Tensor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Sizes past 2^31: element counts and offsets are 64-bit, expanded views of any size are fine when
 * no buffer that large is needed, and a buffer larger than the backend holds is a ShapeException
 * before anything runs. (These iterate over 2^31 to 2^32 elements, a few seconds on the reference
 * interpreter.)
 */
class LargeSizeTest {

    @AfterEach
    void restoreReference() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void theSumOfAn65536By65536OuterProductIs2To32() {
        Tensor a = Tensor.ones(DType.FLOAT32, 65536).contiguous().realize();
        Tensor b = Tensor.ones(DType.FLOAT32, 65536).contiguous().realize();
        Tensor outer = Ein.einsum("i, j -> i j", a, b);
        assertThat(outer.size()).isEqualTo(1L << 32);
        assertThat(outer.sum().item()).isEqualTo(4294967296.0);
    }

    @Test
    void aMatmulWhoseBroadcastHas2To31ElementsIsRight() {
        Tensor a = Tensor.ones(DType.FLOAT32, 2048, 1024).contiguous().realize();
        Tensor b = Tensor.ones(DType.FLOAT32, 1024, 1024).contiguous().realize();
        float[] product = Ein.einsum("i j, j k -> i k", a, b).toFloatArray();
        assertThat(product).hasSize(2048 * 1024);
        for (float value : product) {
            if (value != 1024f) {
                throw new AssertionError("an element is " + value + ", not 1024");
            }
        }
    }

    @Test
    void repeatingAlongANewAxisOfLength2To31Minus1SumsExactly() {
        Tensor a = Tensor.of(new double[] {1, 2}, 2);
        Tensor repeated = a.repeat("a -> a r", Axes.of("r", Integer.MAX_VALUE));
        assertThat(repeated.size()).isEqualTo(2L * Integer.MAX_VALUE);
        assertThat(repeated.sum().item()).isEqualTo(3.0 * Integer.MAX_VALUE);
    }

    @Test
    void aCompositionLongerThanADimensionCanBeIsAShapeException() {
        Tensor a = Tensor.of(new double[] {1, 2}, 2);
        assertThatThrownBy(() -> a.repeat("a -> (a r)", Axes.of("r", Integer.MAX_VALUE)))
                .isInstanceOf(ShapeException.class).hasMessageContaining("(a r)").hasMessageContaining("2^31 - 1");
    }

    @Test
    void materializingMoreThanTheBackendHoldsIsAShapeExceptionNamingShapeAndLimit() {
        Tensor a = Tensor.of(new double[] {1, 2}, 2);
        Tensor big = a.repeat("a -> a r", Axes.of("r", Integer.MAX_VALUE)).mul(2.0).exp().transpose(0, 1).contiguous();
        assertThatThrownBy(big::realize).isInstanceOf(ShapeException.class)
                .hasMessageContaining("[2147483647, 2]").hasMessageContaining(Long.toString(Integer.MAX_VALUE - 8));
    }

    @Test
    void shapesWhoseSizeOverflows64BitsAreRejectedWhenMade() {
        assertThatThrownBy(() -> Tensor.zeros(1 << 30, 1 << 30, 1 << 30)).isInstanceOf(ShapeException.class)
                .hasMessageContaining("2^63");
    }
}
