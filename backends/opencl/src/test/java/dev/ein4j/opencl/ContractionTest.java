package dev.ein4j.opencl;

import dev.ein4j.backend.Backends;
import dev.ein4j.ir.DType;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Ein;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Contractions of many shapes and layouts against the reference: the tiled GEMM (full and partial
 * tiles, transposed operands and outputs, batches, fused epilogues), the general kernel (thin
 * shapes, long dot products, integers), and operands with prologues.
 */
class ContractionTest {

    @AfterEach
    void restore() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void matmulsOfManyLayoutsAgreeWithTheReference() {
        int[][] shapes = {{1, 1, 1}, {7, 13, 5}, {65, 33, 129}, {128, 96, 200}, {3, 1, 300}, {64, 64, 64}, {200, 40, 3}};
        for (int[] s : shapes) {
            for (DType dtype : List.of(DType.FLOAT32, DType.FLOAT64)) {
                String name = Arrays.toString(s) + " " + dtype;
                Supplier<Tensor> a = () -> Tensor.randn(new Generator(s[0] * 31 + s[1]), dtype, s[0], s[2]);
                Supplier<Tensor> b = () -> Tensor.randn(new Generator(s[1] * 17 + s[2]), dtype, s[1], s[2]);
                Supplier<Tensor> bias = () -> Tensor.randn(new Generator(s[1]), dtype, s[1]);
                OpenCl.agree("linear " + name, () -> Ein.einsum("m k, n k -> m n", a.get(), b.get()).add(bias.get()).relu());
                OpenCl.agree("transposed output " + name, () -> Ein.einsum("m k, n k -> n m", a.get(), b.get()));
                OpenCl.agree("plain " + name, () -> Ein.einsum("m k, n k -> m n", a.get(), b.get().permute(1, 0).contiguous().permute(1, 0)));
                OpenCl.agree("k-major left " + name, () -> Ein.einsum("k m, n k -> m n", a.get().permute(1, 0).contiguous(), b.get()));
            }
        }
    }

    @Test
    void batchedAndBroadcastContractionsAgree() {
        Supplier<Tensor> q = () -> Tensor.randn(new Generator(1), 2, 3, 17, 8);
        Supplier<Tensor> k = () -> Tensor.randn(new Generator(2), 2, 3, 19, 8);
        OpenCl.agree("attention scores", () -> Ein.einsum("b h i d, b h j d -> b h i j", q.get(), k.get()));
        OpenCl.agree("scaled and softmaxed", () -> Ein.einsum("b h i d, b h j d -> b h i j", q.get(), k.get()).mul(0.35).softmax(3));
        OpenCl.agree("mixed precision (a cast prologue)",
                () -> Ein.einsum("b h i d, b h j d -> b h i j", q.get().cast(DType.FLOAT64), k.get()));
        OpenCl.agree("prologue on both sides",
                () -> Ein.einsum("b h i d, b h j d -> b h i j", q.get().exp(), k.get().mul(2.0).sin()));
        Supplier<Tensor> x = () -> Tensor.randn(new Generator(3), 4, 70, 48);
        Supplier<Tensor> w = () -> Tensor.randn(new Generator(4), 48, 40);
        OpenCl.agree("batch folded into m", () -> Ein.einsum("b i d, d o -> b i o", x.get(), w.get()));
        OpenCl.agree("batched big", () -> Ein.einsum("b i d, b j d -> b i j", x.get(), x.get()));
        OpenCl.agree("output permuted", () -> Ein.einsum("b i d, d o -> o b i", x.get(), w.get()));
    }

    @Test
    void thinAndLongContractionsAgree() {
        Supplier<Tensor> v = () -> Tensor.randn(new Generator(5), 100_000);
        Supplier<Tensor> u = () -> Tensor.randn(new Generator(6), 100_000);
        OpenCl.agree("dot product", () -> Ein.einsum("k, k ->", v.get(), u.get()));
        Supplier<Tensor> m = () -> Tensor.randn(new Generator(7), 300, 500);
        Supplier<Tensor> y = () -> Tensor.randn(new Generator(8), 500);
        OpenCl.agree("matrix-vector", () -> Ein.einsum("m k, k -> m", m.get(), y.get()));
        OpenCl.agree("outer product", () -> Ein.einsum("m, n -> m n", y.get(), y.get()));
    }

    @Test
    void integerContractionsAreExact() {
        Supplier<Tensor> a = () -> Tensor.randint(new Generator(9), -50, 50, 37, 41);
        Supplier<Tensor> b = () -> Tensor.randint(new Generator(10), -50, 50, 41, 29);
        OpenCl.agree("int32 matmul", () -> Ein.einsum("m k, k n -> m n", a.get(), b.get()));
        OpenCl.agree("int32 batched", () -> Ein.einsum("m k, n k -> n m", a.get(), a.get()));
    }
}
