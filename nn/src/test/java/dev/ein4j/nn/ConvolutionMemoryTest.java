package dev.ein4j.nn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.Backends;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.testing.CountingBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A padded conv2d forward and backward never holds an im2col-sized buffer (K² copies of the
 * input): the forward reads windows as a view of the padded input, and both gradients are
 * contractions over windows.
 */
class ConvolutionMemoryTest {

    private Backend previous;
    private CountingBackend counting;

    @BeforeEach
    void useCountingBackend() {
        previous = Backends.current();
        counting = (CountingBackend) Backends.use(CountingBackend.NAME);
    }

    @AfterEach
    void restore() {
        assertThat(counting.doubleReleases()).isZero();
        Backends.use(previous.name());
    }

    @Test
    void forwardAndBackwardStayFarBelowAnIm2colBuffer() {
        int batch = 2;
        int channels = 16;
        int outputs = 4;
        int size = 32;
        Tensor x = Tensor.randn(new Generator(1), batch, channels, size, size).realize().requireGrad();
        Tensor w = Tensor.randn(new Generator(2), outputs, channels, 5, 5).mul(0.1).realize().requireGrad();
        Tensor b = Tensor.zeros(outputs).contiguous().realize().requireGrad();
        long inputBytes = 4L * batch * channels * size * size;
        long outputBytes = 4L * batch * outputs * size * size;
        long im2colBytes = 25 * inputBytes;
        counting.reset();
        long before = counting.liveBytes();

        Tensor y = Functional.conv2d(x, w, b, ConvolutionOptions.defaults().padding(2));
        y.square().sum().backward();

        long peak = counting.peakBytes() - before;
        assertThat(x.grad().shape()).containsExactly(x.shape());
        // input-sized: the padded input and x's gradient (computed padded, then cut); output-sized: the
        // output, its gradient and the gradient padded for the transposed convolution
        long bound = 3 * inputBytes + 4 * outputBytes;
        assertThat(peak).as("peak bytes beside an im2col buffer of %d", im2colBytes).isLessThanOrEqualTo(bound)
                .isLessThan(im2colBytes / 4);
    }
}
