package dev.ein4j.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.backend.Backend;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.ContractSpec;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.KernelInterpreter;
import dev.ein4j.kernel.Parameters;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Kernels of the shapes runtime v3 makes, run on a backend through the SPI and compared with the
 * interpreter: parameters (one kernel, other values), several outputs (one of them written over its
 * own input), several reductions over one space, and contractions with replicated output axes.
 * Each backend's tests call {@link #assertAll}.
 */
public final class KernelCases {

    /** One kernel, its inputs, its parameters, and which inputs its outputs overwrite (−1: a fresh buffer). */
    public record Case(String name, Kernel kernel, List<HostData> inputs, Parameters parameters, int[] aliases) {
    }

    private KernelCases() {
    }

    /** @return the cases */
    public static List<Case> all() {
        List<Case> cases = new ArrayList<>();
        for (DType type : List.of(DType.FLOAT32, DType.FLOAT64)) {
            for (Parameters parameters : List.of(Parameters.ofConstants(0.9, 0.999, 0.01), Parameters.ofConstants(0.5, 0.25, -3))) {
                cases.add(adamLike(type, parameters, false));
                cases.add(adamLike(type, parameters, true));
            }
            cases.add(twoReductions(type, false));
            cases.add(twoReductions(type, true));
            cases.add(replicated(type, false));
            cases.add(replicated(type, true));
            cases.add(pooledWindows(type));
        }
        cases.add(randomMask(7L));
        cases.add(randomMask(1234567890123L));
        return cases;
    }

    /**
     * Runs every case on the backend and compares each output with the interpreter's: exactly for
     * integers and bools, within 1e-5 (float32) or 1e-12 (float64) relative otherwise.
     *
     * @param backend the backend
     */
    public static void assertAll(Backend backend) {
        for (Case c : all()) {
            List<HostData> expected = interpret(c);
            List<HostData> actual = run(backend, c);
            for (int k = 0; k < expected.size(); k++) {
                double[] x = expected.get(k).toDoubles();
                double[] y = actual.get(k).toDoubles();
                assertThat(y).as(c.name() + " output " + k + " length").hasSize(x.length);
                double tolerance = c.kernel().outputType(k) == DType.FLOAT32 ? 1e-5 : 1e-12;
                for (int i = 0; i < x.length; i++) {
                    double allowed = c.kernel().outputType(k).isFloating() ? tolerance * (1 + Math.abs(x[i])) : 0;
                    assertThat(Math.abs(x[i] - y[i])).as(c.name() + " output " + k + " element " + i + ": " + x[i] + " vs " + y[i]
                            + " on " + backend.name() + "\n" + c.kernel()).isLessThanOrEqualTo(allowed);
                }
            }
        }
    }

    /** @return the interpreter's outputs (aliased outputs computed into copies of their inputs) */
    public static List<HostData> interpret(Case c) {
        List<HostData> inputs = new ArrayList<>();
        for (HostData input : c.inputs()) {
            inputs.add(copy(input));
        }
        List<HostData> outputs = new ArrayList<>();
        for (int k = 0; k < c.kernel().outputCount(); k++) {
            outputs.add(c.aliases()[k] >= 0 ? inputs.get(c.aliases()[k])
                    : HostData.allocate(c.kernel().outputType(k), (int) c.kernel().outputSize()));
        }
        KernelInterpreter.run(c.kernel(), outputs, inputs, c.parameters());
        return outputs;
    }

    /** @return the backend's outputs, read back */
    public static List<HostData> run(Backend backend, Case c) {
        List<DeviceBuffer> inputs = new ArrayList<>();
        List<DeviceBuffer> fresh = new ArrayList<>();
        try {
            for (HostData input : c.inputs()) {
                DeviceBuffer buffer = backend.allocate(input.dtype(), input.length());
                backend.write(buffer, input);
                inputs.add(buffer);
            }
            List<DeviceBuffer> outputs = new ArrayList<>();
            for (int k = 0; k < c.kernel().outputCount(); k++) {
                if (c.aliases()[k] >= 0) {
                    outputs.add(inputs.get(c.aliases()[k]));
                } else {
                    DeviceBuffer buffer = backend.allocate(c.kernel().outputType(k), c.kernel().outputSize());
                    fresh.add(buffer);
                    outputs.add(buffer);
                }
            }
            backend.execute(c.kernel(), outputs, inputs, c.parameters());
            List<HostData> results = new ArrayList<>();
            for (DeviceBuffer output : outputs) {
                results.add(backend.read(output));
            }
            return results;
        } finally {
            inputs.forEach(backend::release);
            fresh.forEach(backend::release);
        }
    }

    /** m ← a·m + (1 − a)·g, v ← b·v + (1 − b)·g², p ← p − c·m/(√v + 1): three outputs, optionally over their own inputs. */
    private static Case adamLike(DType type, Parameters parameters, boolean inPlace) {
        int[] shape = {7, 33};
        View view = View.contiguous(shape);
        View scalar = View.broadcastScalar(shape);
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, type, view));                        // %0 p
        p.add(Instruction.load(1, type, view));                        // %1 m
        p.add(Instruction.load(2, type, view));                        // %2 v
        p.add(Instruction.load(3, type, view));                        // %3 g
        p.add(Instruction.constant(0, type, scalar));                  // %4 a
        p.add(Instruction.constant(1, type, scalar));                  // %5 b
        p.add(Instruction.constant(2, type, scalar));                  // %6 c
        p.add(Instruction.apply(Op.MUL, type, shape, 4, 1));           // %7 a m
        p.add(Instruction.apply(Op.MUL, type, shape, 6, 3));           // %8 c g (stands for (1 − a) g)
        p.add(Instruction.apply(Op.ADD, type, shape, 7, 8));           // %9 m'
        p.add(Instruction.apply(Op.MUL, type, shape, 3, 3));           // %10 g²
        p.add(Instruction.apply(Op.MUL, type, shape, 5, 2));           // %11 b v
        p.add(Instruction.apply(Op.ADD, type, shape, 11, 10));         // %12 v'
        p.add(Instruction.apply(Op.MUL, type, shape, 12, 12));         // %13 v'² (positive)
        p.add(Instruction.apply(Op.SQRT, type, shape, 13));            // %14 |v'|
        p.add(Instruction.apply(Op.RECIPROCAL, type, shape, 14));      // %15 1/|v'|
        p.add(Instruction.apply(Op.MUL, type, shape, 9, 15));          // %16 m'/|v'|
        p.add(Instruction.apply(Op.MUL, type, shape, 16, 6));          // %17 c m'/|v'|
        p.add(Instruction.apply(Op.ADD, type, shape, 0, 17));          // %18 p'
        Kernel kernel = new Kernel(List.of(type, type, type, type), p, new int[] {18, 9, 12});
        SplittableRandom random = new SplittableRandom(3);
        List<HostData> inputs = List.of(data(type, 7 * 33, random), data(type, 7 * 33, random), data(type, 7 * 33, random),
                data(type, 7 * 33, random));
        return new Case("adam-like " + type + (inPlace ? " in place " : " ") + parameters, kernel, inputs, parameters,
                inPlace ? new int[] {0, 1, 2} : new int[] {-1, -1, -1});
    }

    /** Σ x and Σ x² over one axis in one pass; optionally an epilogue writing the variance and the mean. */
    private static Case twoReductions(DType type, boolean epilogue) {
        int[] shape = {5, 37, 3};
        int[] reduced = {5, 1, 3};
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, type, View.contiguous(shape)));
        p.add(Instruction.apply(Op.MUL, type, shape, 0, 0));
        p.add(Instruction.reduce(Op.SUM, type, reduced, new int[] {1}, 0));
        p.add(Instruction.reduce(Op.SUM, type, reduced, new int[] {1}, 1));
        int[] outputs = {2, 3};
        if (epilogue) {
            p.add(Instruction.constant(0, type, View.broadcastScalar(reduced)));          // %4 1/n
            p.add(Instruction.apply(Op.MUL, type, reduced, 2, 4));                        // %5 mean
            p.add(Instruction.apply(Op.MUL, type, reduced, 3, 4));                        // %6 E[x²]
            p.add(Instruction.apply(Op.MUL, type, reduced, 5, 5));                        // %7 mean²
            p.add(Instruction.constant(1, type, View.broadcastScalar(reduced)));          // %8 −1
            p.add(Instruction.apply(Op.MUL, type, reduced, 7, 8));
            p.add(Instruction.apply(Op.ADD, type, reduced, 6, 9));                        // %10 variance
            outputs = new int[] {10, 5};
        }
        Kernel kernel = new Kernel(List.of(type), p, outputs);
        return new Case("two reductions " + type + (epilogue ? " with an epilogue" : ""), kernel,
                List.of(data(type, 5 * 37 * 3, new SplittableRandom(5))), Parameters.ofConstants(1.0 / 37, -1), new int[] {-1, -1});
    }

    /** out[b, o] = Σ_k left[b, k]·right[k] with o in neither operand (a replicated axis), optionally plus a bias of o. */
    private static Case replicated(DType type, boolean epilogue) {
        int[] full = {4, 3, 6};
        int[] leftShape = {4, 1, 6};
        int[] rightShape = {1, 1, 6};
        int[] out = {4, 3, 1};
        ContractSpec spec = ContractSpec.of(full, leftShape, rightShape, new int[] {2}, View.contiguous(leftShape),
                View.contiguous(rightShape), type);
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, type, View.contiguous(leftShape)));
        p.add(Instruction.load(1, type, View.contiguous(rightShape)));
        p.add(Instruction.contract(type, out, spec, 0, 1));
        List<DType> types = new ArrayList<>(List.of(type, type));
        List<HostData> inputs = new ArrayList<>(List.of(data(type, 24, new SplittableRandom(8)), data(type, 6, new SplittableRandom(9))));
        if (epilogue) {
            p.add(Instruction.load(2, type, View.contiguous(new int[] {1, 3, 1}).expand(out)));
            p.add(Instruction.apply(Op.ADD, type, out, 2, 3));
            types.add(type);
            inputs.add(data(type, 3, new SplittableRandom(10)));
        }
        Kernel kernel = new Kernel(types, p);
        assertThat(spec.hasReplicas()).isTrue();
        return new Case("replicated axis " + type + (epilogue ? " with a bias" : ""), kernel, inputs, Parameters.NONE, new int[] {-1});
    }

    /**
     * max over 2 × 2 windows of relu(x + bias) and the mean of each window, for x[2, 3, 10, 12]: a
     * reduction over few positions (which the cpu backend unrolls into shifted loads).
     */
    private static Case pooledWindows(DType type) {
        int[] split = {2, 3, 5, 2, 6, 2};
        int[] pooled = {2, 3, 5, 1, 6, 1};
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.load(0, type, View.contiguous(new int[] {2, 3, 10, 12}).reshape(split)));
        p.add(Instruction.load(1, type, View.contiguous(new int[] {1, 3, 1, 1, 1, 1}).expand(split)));
        p.add(Instruction.apply(Op.ADD, type, split, 0, 1));
        p.add(Instruction.constant(0, type, View.broadcastScalar(split)));
        p.add(Instruction.apply(Op.CMPLT, DType.BOOL, split, 2, 3));
        p.add(Instruction.apply(Op.WHERE, type, split, 4, 3, 2));                       // %5 relu
        p.add(Instruction.reduce(Op.REDUCE_MAX, type, pooled, new int[] {3, 5}, 5));   // %6
        p.add(Instruction.reduce(Op.SUM, type, pooled, new int[] {3, 5}, 0));          // %7
        p.add(Instruction.constant(1, type, View.broadcastScalar(pooled)));
        p.add(Instruction.apply(Op.MUL, type, pooled, 7, 8));                          // %9 mean
        Kernel kernel = new Kernel(List.of(type, type), p, new int[] {6, 9});
        return new Case("pooled windows " + type, kernel, List.of(data(type, 2 * 3 * 120, new SplittableRandom(12)),
                data(type, 3, new SplittableRandom(13))), Parameters.ofConstants(0, 0.25), new int[] {-1, -1});
    }

    /** A mask from a RAND whose seed is a parameter: the same kernel for every seed. */
    private static Case randomMask(long seed) {
        int[] shape = {9, 130};
        List<Instruction> p = new ArrayList<>();
        p.add(Instruction.random(0, DType.FLOAT32, View.contiguous(shape)));
        p.add(Instruction.constant(1, DType.FLOAT32, View.broadcastScalar(shape)));
        p.add(Instruction.apply(Op.CMPLT, DType.BOOL, shape, 0, 1));
        p.add(Instruction.load(0, DType.FLOAT32, View.contiguous(shape)));
        p.add(Instruction.constant(2, DType.FLOAT32, View.broadcastScalar(shape)));
        p.add(Instruction.apply(Op.WHERE, DType.FLOAT32, shape, 2, 3, 4));
        Kernel kernel = new Kernel(List.of(DType.FLOAT32), p, new int[] {5, 2});
        Parameters parameters = Parameters.ofBits(seed, Double.doubleToRawLongBits(0.3), Double.doubleToRawLongBits(0.0));
        return new Case("random mask seed " + seed, kernel, List.of(data(DType.FLOAT32, 9 * 130, new SplittableRandom(11))),
                parameters, new int[] {-1, -1});
    }

    private static HostData data(DType type, int length, SplittableRandom random) {
        double[] values = new double[length];
        for (int i = 0; i < length; i++) {
            values[i] = random.nextDouble(-2, 2);
        }
        return HostData.fromDoubles(type, values);
    }

    private static HostData copy(HostData data) {
        HostData copy = HostData.allocate(data.dtype(), data.length());
        copy.copyFrom(data, 0, 0, data.length());
        return copy;
    }
}
