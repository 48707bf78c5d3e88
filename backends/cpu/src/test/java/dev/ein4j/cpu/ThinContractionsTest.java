package dev.ein4j.cpu;

import dev.ein4j.backend.Backends;
import dev.ein4j.ir.DType;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.testing.Agreement;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Contractions with one to four rows (or columns) of output, as a decode step of a language model
 * has them, on the CPU backend against the reference interpreter: a row-major weight, a weight read
 * transposed (a tied embedding as the head), batched attention over a cache, strided and flipped
 * operands, with an epilogue, in float32 and float64.
 */
class ThinContractionsTest {

    @AfterEach
    void restore() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void thinContractionsAgreeWithTheReference() {
        for (DType dtype : List.of(DType.FLOAT32, DType.FLOAT64)) {
            for (int rows = 1; rows <= 5; rows++) {
                int t = rows;
                List<Function<DType, Tensor>> cases = List.of(
                        d -> Ein.einsum("t h, h v -> t v", randn(1, d, t, 77), randn(2, d, 77, 1031)),
                        d -> Ein.einsum("b t h, v h -> b t v", randn(3, d, 1, t, 96), randn(4, d, 2053, 96)),
                        d -> Ein.einsum("b h t d, b h s d -> b h t s", randn(5, d, 1, 12, t, 64),
                                randn(6, d, 1, 12, 37, 64)),
                        d -> Ein.einsum("b h t s, b h s d -> b h t d", randn(7, d, 1, 12, t, 37),
                                randn(8, d, 1, 12, 37, 64)),
                        d -> Ein.einsum("t h, h v -> t v", randn(9, d, t, 2 * 61).slice(1, 0, 122).flip(1)
                                .slice(1, 0, 61), randn(10, d, 61, 300).transpose(0, 1).flip(0).transpose(0, 1)),
                        d -> Ein.einsum("v h, t h -> v t", randn(11, d, 515, 40), randn(12, d, t, 40))
                                .add(randn(13, d, 515, 1)).relu());
                for (int c = 0; c < cases.size(); c++) {
                    Backends.use(ReferenceBackend.NAME);
                    Tensor expected = cases.get(c).apply(dtype).realize();
                    Backends.use(CpuBackend.NAME);
                    Tensor actual = cases.get(c).apply(dtype);
                    Agreement.compare("case " + c + ", " + rows + " rows, " + dtype, expected, actual,
                            CpuBackend.NAME);
                }
            }
        }
    }

    private static Tensor randn(long seed, DType dtype, int... shape) {
        return Tensor.randn(new Generator(seed), dtype, shape);
    }
}
