package dev.ein4j.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The semantic definition of primitives on each type, one kernel at a time. */
class KernelInterpreterTest {

    private static HostData run(Kernel kernel, HostData... inputs) {
        return run(kernel, Parameters.NONE, inputs);
    }

    private static HostData run(Kernel kernel, Parameters parameters, HostData... inputs) {
        HostData out = HostData.allocate(kernel.outputType(), (int) kernel.outputSize());
        KernelInterpreter.run(kernel, out, List.of(inputs), parameters);
        return out;
    }

    private static Kernel binary(Op op, DType in, DType out, int n) {
        View view = View.contiguous(new int[] {n});
        return new Kernel(List.of(in, in), List.of(Instruction.load(0, in, view), Instruction.load(1, in, view),
                Instruction.apply(op, out, new int[] {n}, 0, 1)));
    }

    @Test
    void int32ArithmeticWrapsLikeTwosComplement() {
        HostData a = new HostData.Int32(new int[] {Integer.MAX_VALUE, -7, 65536, Integer.MIN_VALUE});
        HostData b = new HostData.Int32(new int[] {1, 3, 65536, -1});
        assertThat(((HostData.Int32) run(binary(Op.ADD, DType.INT32, DType.INT32, 4), a, b)).values())
                .containsExactly(Integer.MIN_VALUE, -4, 131072, Integer.MAX_VALUE);
        assertThat(((HostData.Int32) run(binary(Op.MUL, DType.INT32, DType.INT32, 4), a, b)).values())
                .containsExactly(Integer.MAX_VALUE, -21, 0, Integer.MIN_VALUE);
    }

    @Test
    void boolArithmeticIsLogic() {
        HostData a = new HostData.Bool(new byte[] {0, 0, 1, 1});
        HostData b = new HostData.Bool(new byte[] {0, 1, 0, 1});
        assertThat(((HostData.Bool) run(binary(Op.ADD, DType.BOOL, DType.BOOL, 4), a, b)).values()).containsExactly(0, 1, 1, 1);
        assertThat(((HostData.Bool) run(binary(Op.MUL, DType.BOOL, DType.BOOL, 4), a, b)).values()).containsExactly(0, 0, 0, 1);
        assertThat(((HostData.Bool) run(binary(Op.MAX, DType.BOOL, DType.BOOL, 4), a, b)).values()).containsExactly(0, 1, 1, 1);
    }

    @Test
    void comparisonsGiveBoolAndAreFalseWithNaN() {
        HostData a = new HostData.Float32(new float[] {1, 2, Float.NaN, -0f});
        HostData b = new HostData.Float32(new float[] {2, 2, 1, 0f});
        assertThat(((HostData.Bool) run(binary(Op.CMPLT, DType.FLOAT32, DType.BOOL, 4), a, b)).values()).containsExactly(1, 0, 0, 0);
        assertThat(((HostData.Bool) run(binary(Op.CMPEQ, DType.FLOAT32, DType.BOOL, 4), a, b)).values()).containsExactly(0, 1, 0, 1);
    }

    @Test
    void castsTruncateTowardZeroAndBoolIsNonZero() {
        HostData x = new HostData.Float64(new double[] {2.7, -2.7, 0.0, -0.0, Double.NaN, 1e-300, 3e9});
        View view = View.contiguous(new int[] {7});
        Kernel toInt = new Kernel(List.of(DType.FLOAT64), List.of(Instruction.load(0, DType.FLOAT64, view),
                Instruction.apply(Op.CAST, DType.INT32, new int[] {7}, 0)));
        Kernel toBool = new Kernel(List.of(DType.FLOAT64), List.of(Instruction.load(0, DType.FLOAT64, view),
                Instruction.apply(Op.CAST, DType.BOOL, new int[] {7}, 0)));
        assertThat(((HostData.Int32) run(toInt, x)).values()).containsExactly(2, -2, 0, 0, 0, 0, (int) 3_000_000_000L);
        assertThat(((HostData.Bool) run(toBool, x)).values()).containsExactly(1, 1, 0, 0, 1, 1, 1);
    }

    @Test
    void float32ResultsAreRoundedAfterEveryPrimitive() {
        HostData a = new HostData.Float32(new float[] {16_777_216f});
        HostData b = new HostData.Float32(new float[] {1f});
        View view = View.contiguous(new int[] {1});
        // (a + b) + b in float32 is a: each addition rounds
        Kernel twice = new Kernel(List.of(DType.FLOAT32, DType.FLOAT32), List.of(Instruction.load(0, DType.FLOAT32, view),
                Instruction.load(1, DType.FLOAT32, view), Instruction.apply(Op.ADD, DType.FLOAT32, new int[] {1}, 0, 1),
                Instruction.apply(Op.ADD, DType.FLOAT32, new int[] {1}, 2, 1)));
        assertThat(((HostData.Float32) run(twice, a, b)).values()).containsExactly(16_777_216f);
    }

    @Test
    void integerReductionsWrapOnceAtTheEndAndMaxOfBoolIsAny() {
        View view = View.contiguous(new int[] {3});
        Kernel sum = new Kernel(List.of(DType.INT32), List.of(Instruction.load(0, DType.INT32, view),
                Instruction.reduce(Op.SUM, DType.INT32, new int[] {1}, new int[] {0}, 0)));
        assertThat(((HostData.Int32) run(sum, new HostData.Int32(new int[] {Integer.MAX_VALUE, 1, -1}))).values())
                .containsExactly(Integer.MAX_VALUE);
        Kernel any = new Kernel(List.of(DType.BOOL), List.of(Instruction.load(0, DType.BOOL, view),
                Instruction.reduce(Op.REDUCE_MAX, DType.BOOL, new int[] {1}, new int[] {0}, 0)));
        assertThat(((HostData.Bool) run(any, new HostData.Bool(new byte[] {0, 1, 0}))).values()).containsExactly(1);
    }

    @Test
    void generatorsReadVirtualBuffersThroughViews() {
        View reversed = View.contiguous(new int[] {5}).flip(new boolean[] {true});
        Kernel iota = new Kernel(List.of(), List.of(Instruction.iota(DType.INT32, reversed)));
        assertThat(((HostData.Int32) run(iota)).values()).containsExactly(4, 3, 2, 1, 0);
        View padded = View.broadcastScalar(new int[] {3}).pad(new int[] {1}, new int[] {1}, -1.0);
        Kernel constant = new Kernel(List.of(), List.of(Instruction.constant(0, DType.FLOAT64, padded)));
        assertThat(((HostData.Float64) run(constant, Parameters.ofConstants(7.0))).values()).containsExactly(-1, 7, 7, 7, -1);
        assertThat(((HostData.Float64) run(constant, Parameters.ofConstants(2.5))).values()).containsExactly(-1, 2.5, 2.5, 2.5, -1);
        Kernel random = new Kernel(List.of(), List.of(Instruction.random(0, DType.FLOAT32, reversed)));
        assertThat(((HostData.Float32) run(random, Parameters.ofBits(9L))).values()[0]).isEqualTo((float) CounterRandom.uniformFloat(9, 4));
    }

    @Test
    void malformedProgramsAreRejected() {
        View view = View.contiguous(new int[] {3});
        assertThatThrownBy(() -> new Kernel(List.of(DType.FLOAT32), List.of(Instruction.load(0, DType.FLOAT64, view))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mistyped");
        assertThatThrownBy(() -> new Kernel(List.of(DType.FLOAT32), List.of(Instruction.load(0, DType.FLOAT32, view),
                Instruction.apply(Op.EXP, DType.FLOAT32, new int[] {4}, 0)))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Kernel(List.of(), List.of(Instruction.apply(Op.EXP, DType.FLOAT32, new int[] {3}, 0))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not precede");
    }
}
