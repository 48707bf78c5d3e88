package dev.ein4j.opencl;

import dev.ein4j.backend.Backends;
import dev.ein4j.ir.DType;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Reductions of every layout (each schedule: item per output, group per output) and type against the reference. */
class ReductionTest {

    @AfterEach
    void restore() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void reductionsOfEveryLayoutAgreeWithTheReference() {
        int[][] shapes = {{4096}, {3, 5000}, {5000, 3}, {64, 64, 33}, {1, 1, 70000}, {20000, 40}, {40, 20000}, {7, 1, 5}};
        for (int[] shape : shapes) {
            for (int axis = 0; axis < shape.length; axis++) {
                int a = axis;
                String name = Arrays.toString(shape) + " axis " + axis;
                Supplier<Tensor> x = () -> Tensor.randn(new Generator(a * 100 + shape.length), DType.FLOAT32, shape);
                OpenCl.agree("sum " + name, () -> x.get().sum(a));
                OpenCl.agree("max " + name, () -> x.get().max(new int[] {a}, true));
                OpenCl.agree("softmax " + name, () -> x.get().softmax(a));
                OpenCl.agree("mean " + name, () -> x.get().mean(a));
            }
            Supplier<Tensor> x = () -> Tensor.randn(new Generator(shape.length), DType.FLOAT32, shape);
            OpenCl.agree("sum of all " + Arrays.toString(shape), () -> x.get().sum());
        }
    }

    @Test
    void integerBoolAndDoubleReductionsAgree() {
        int[] shape = {33, 700};
        Supplier<Tensor> ints = () -> Tensor.randint(new Generator(11), -1000, 1000, shape);
        for (int axis = 0; axis < 2; axis++) {
            int a = axis;
            OpenCl.agree("int32 sum " + axis, () -> ints.get().sum(a));
            OpenCl.agree("int32 max " + axis, () -> ints.get().max(new int[] {a}, false));
            OpenCl.agree("int32 prod (wrapping) " + axis, () -> ints.get().gt(0).cast(DType.INT32).add(1).prod(a));
            OpenCl.agree("int32 prod " + axis, () -> ints.get().gt(990).cast(DType.INT32).add(1).prod(a));
            OpenCl.agree("bool any " + axis, () -> ints.get().gt(900).cast(DType.INT32).sum(a).gt(0));
            OpenCl.agree("float64 sum " + axis, () -> ints.get().cast(DType.FLOAT64).mul(0.001).sum(a));
            OpenCl.agree("float64 prod " + axis, () -> ints.get().cast(DType.FLOAT64).mul(1e-3).add(1.0).prod(a));
        }
    }

    @Test
    void nanWinsMaxReductions() {
        for (int length : List.of(5, 5000)) {
            OpenCl.agree("max with NaN " + length, () -> Tensor.where(Tensor.arange(length).eq(3),
                    Tensor.full(Double.NaN, DType.FLOAT32, length), Tensor.arange(DType.FLOAT32, length).mul(0.5))
                    .max(new int[] {0}, false));
        }
    }
}
