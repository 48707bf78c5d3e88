package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.CounterRandom;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.Parameters;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Generated code against the interpreter, bit for bit, where the semantics are exact: RAND's bits,
 * IOTA, casts (truncation, wrapping, NaN), max with NaN and signed zeros, comparisons with NaN,
 * int32 wrapping, bool logic, masks and pad values, negative and zero strides.
 */
class SemanticsTest {

    private static final float[] SPECIAL = {0f, -0f, 1.5f, -2.5f, Float.NaN, Float.POSITIVE_INFINITY,
        Float.NEGATIVE_INFINITY, 3e9f, -3e9f, 1e20f, -1e-30f, 7f, 2147483520f, -2147483648f, 0.49999997f, 16777217f};

    @Test
    void randIsBitIdenticalToCounterRandom() {
        OpenClBackend opencl = OpenCl.backend();
        for (DType dtype : List.of(DType.FLOAT32, DType.FLOAT64)) {
            if (!opencl.capabilities().supports(dtype)) {
                continue;
            }
            for (long seed : new long[] {0, 42, -7, Long.MIN_VALUE, 0x9E3779B97F4A7C15L}) {
                int n = 1000;
                Kernel kernel = new Kernel(List.of(), List.of(Instruction.random(0, dtype, View.contiguous(new int[] {n}))));
                HostData[] results = KernelAgreement.run(opencl, kernel, List.of(), Parameters.ofBits(seed));
                for (int i = 0; i < n; i++) {
                    double expected = dtype == DType.FLOAT32 ? CounterRandom.uniformFloat(seed, i) : CounterRandom.uniformDouble(seed, i);
                    assertThat(results[1].get(i)).as("seed %d element %d", seed, i).isEqualTo(expected);
                }
            }
            // positions through a view: flipped, padded (negative positions masked), expanded
            View view = View.contiguous(new int[] {5, 7}).flip(new boolean[] {true, false}).expand(new int[] {5, 7});
            View far = View.contiguous(new int[] {1, 6}).pad(new int[] {0, 3}, new int[] {0, 0}, 0.25).expand(new int[] {4, 9});
            for (View v : List.of(view, far, View.broadcastScalar(new int[] {3, 3}))) {
                Kernel kernel = new Kernel(List.of(), List.of(Instruction.random(0, dtype, v)));
                KernelAgreement.assertIdentical("rand via " + v, opencl, kernel, List.of(), Parameters.ofBits(12345L));
            }
        }
    }

    @Test
    void castsAgreeBitForBit() {
        OpenClBackend opencl = OpenCl.backend();
        List<DType> types = new ArrayList<>(List.of(DType.FLOAT32, DType.INT32, DType.BOOL));
        if (opencl.capabilities().supports(DType.FLOAT64)) {
            types.add(DType.FLOAT64);
        }
        int[] shape = {SPECIAL.length};
        for (DType from : types) {
            HostData input = HostData.allocate(from, SPECIAL.length);
            for (int i = 0; i < SPECIAL.length; i++) {
                input.set(i, from == DType.FLOAT64 ? SPECIAL[i] * 1e10 : SPECIAL[i]);
            }
            for (DType to : types) {
                Kernel kernel = Kernel.copy(from, View.contiguous(shape), to);
                KernelAgreement.assertIdentical("cast " + from + " -> " + to, opencl, kernel, List.of(input));
            }
        }
    }

    @Test
    void everyPrimitiveOfEveryTypeAgrees() {
        OpenClBackend opencl = OpenCl.backend();
        int n = SPECIAL.length;
        int[] shape = {n, n};
        HostData x = new HostData.Float32(new float[n]);
        for (int i = 0; i < n; i++) {
            x.set(i, SPECIAL[i]);
        }
        View rows = View.contiguous(new int[] {n, 1}).expand(shape);
        View columns = View.contiguous(new int[] {1, n}).expand(shape);
        for (DType type : List.of(DType.FLOAT32, DType.INT32, DType.BOOL, DType.FLOAT64)) {
            if (!opencl.capabilities().supports(type)) {
                continue;
            }
            for (Op op : List.of(Op.ADD, Op.MUL, Op.MAX, Op.CMPLT, Op.CMPEQ)) {
                if (op == Op.MUL && type == DType.INT32) {
                    continue; // products past 2^53 lose bits in the interpreter's double; int32ArithmeticWraps checks exact wrapping
                }
                List<Instruction> program = new ArrayList<>();
                program.add(Instruction.load(0, DType.FLOAT32, rows));
                program.add(Instruction.load(0, DType.FLOAT32, columns));
                program.add(Instruction.apply(Op.CAST, type, shape, 0));
                program.add(Instruction.apply(Op.CAST, type, shape, 1));
                DType result = op == Op.CMPLT || op == Op.CMPEQ ? DType.BOOL : type;
                program.add(Instruction.apply(op, result, shape, 2, 3));
                KernelAgreement.assertIdentical(op + " " + type, opencl, new Kernel(List.of(DType.FLOAT32), program), List.of(x));
            }
            if (type.isFloating()) {
                for (Op op : List.of(Op.SQRT, Op.RECIPROCAL)) {
                    List<Instruction> program = new ArrayList<>();
                    program.add(Instruction.load(0, DType.FLOAT32, View.contiguous(new int[] {n})));
                    program.add(Instruction.apply(Op.CAST, type, new int[] {n}, 0));
                    program.add(Instruction.apply(op, type, new int[] {n}, 1));
                    KernelAgreement.assertIdentical(op + " " + type, opencl, new Kernel(List.of(DType.FLOAT32), program), List.of(x));
                }
            }
            // where on a bool condition
            List<Instruction> program = new ArrayList<>();
            program.add(Instruction.load(0, DType.FLOAT32, rows));
            program.add(Instruction.load(0, DType.FLOAT32, columns));
            program.add(Instruction.apply(Op.CMPLT, DType.BOOL, shape, 0, 1));
            program.add(Instruction.apply(Op.CAST, type, shape, 0));
            program.add(Instruction.apply(Op.CAST, type, shape, 1));
            program.add(Instruction.apply(Op.WHERE, type, shape, 2, 3, 4));
            KernelAgreement.assertIdentical("where " + type, opencl, new Kernel(List.of(DType.FLOAT32), program), List.of(x));
        }
    }

    @Test
    void transcendentalFunctionsAreCloseInFloat32() {
        OpenClBackend opencl = OpenCl.backend();
        int n = 2001;
        HostData x = new HostData.Float32(new float[n]);
        for (int i = 0; i < n; i++) {
            x.set(i, (i - 1000) * 0.013);
        }
        for (Op op : List.of(Op.EXP, Op.LOG, Op.SIN)) {
            Kernel kernel = new Kernel(List.of(DType.FLOAT32), List.of(
                    Instruction.load(0, DType.FLOAT32, View.contiguous(new int[] {n})),
                    Instruction.apply(op, DType.FLOAT32, new int[] {n}, 0)));
            HostData[] results = KernelAgreement.run(opencl, kernel, List.of(x));
            for (int i = 0; i < n; i++) {
                double e = results[0].get(i);
                double a = results[1].get(i);
                if (Double.isNaN(e)) {
                    assertThat(a).as("%s at %s", op, x.get(i)).isNaN();
                } else if (Double.isInfinite(e)) {
                    assertThat(a).as("%s at %s", op, x.get(i)).isEqualTo(e);
                } else {
                    assertThat(Math.abs(a - e)).as("%s at %s", op, x.get(i)).isLessThanOrEqualTo(4 * Math.ulp((float) e) + 1e-30);
                }
            }
        }
    }

    @Test
    void masksPadValuesAndNegativeStridesAgree() {
        OpenClBackend opencl = OpenCl.backend();
        int[] shape = {4, 6};
        HostData x = new HostData.Int32(new int[24]);
        for (int i = 0; i < 24; i++) {
            x.set(i, i * 7 - 30);
        }
        View padded = View.contiguous(new int[] {2, 3}).pad(new int[] {1, 2}, new int[] {1, 1}, -1.5).flip(new boolean[] {false, true});
        View flipped = View.contiguous(shape).flip(new boolean[] {true, true});
        List<Instruction> program = List.of(
                Instruction.load(0, DType.INT32, padded),
                Instruction.load(0, DType.INT32, flipped),
                Instruction.apply(Op.ADD, DType.INT32, shape, 0, 1),
                Instruction.iota(DType.INT32, View.contiguous(shape).flip(new boolean[] {true, false})),
                Instruction.apply(Op.MUL, DType.INT32, shape, 2, 3));
        KernelAgreement.assertIdentical("masked and flipped int32", opencl, new Kernel(List.of(DType.INT32), program), List.of(x));
        List<Instruction> floats = List.of(
                Instruction.constant(0, DType.FLOAT32, padded),
                Instruction.iota(DType.FLOAT32, padded),
                Instruction.apply(Op.ADD, DType.FLOAT32, shape, 0, 1));
        KernelAgreement.assertIdentical("padded generators", opencl, new Kernel(List.of(), floats), List.of(), Parameters.ofConstants(0.1));
    }

    @Test
    void int32ArithmeticWraps() {
        OpenClBackend opencl = OpenCl.backend();
        HostData x = new HostData.Int32(new int[] {Integer.MAX_VALUE, Integer.MIN_VALUE, 65536, -3, 46341});
        int[] shape = {5};
        List<Instruction> program = List.of(
                Instruction.load(0, DType.INT32, View.contiguous(shape)),
                Instruction.apply(Op.ADD, DType.INT32, shape, 0, 0),
                Instruction.apply(Op.MUL, DType.INT32, shape, 0, 1));
        HostData[] results = KernelAgreement.run(opencl, new Kernel(List.of(DType.INT32), program), List.of(x));
        int[] values = ((HostData.Int32) results[1]).values();
        int[] source = ((HostData.Int32) x).values();
        for (int i = 0; i < 5; i++) {
            assertThat(values[i]).isEqualTo(source[i] * (source[i] + source[i]));
        }
    }
}
