package dev.ein4j.opencl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.backend.DeviceBuffer;
import dev.ein4j.error.IndexOutOfRangeException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.KernelInterpreter;
import dev.ein4j.kernel.Parameters;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.tensor.Generator;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * GATHER and SCATTER kernels against the interpreter, bit for bit: random shapes (lengths 1 and
 * primes), axes, types, permuted and flipped source views, indices computed in the kernel,
 * duplicates (the last write wins, additions in order), gathers in reduction prologues; bad indices
 * throw the interpreter's exception, first offender included, and leak nothing.
 */
class IndexedKernelTest {

    private static final int[] LENGTHS = {1, 2, 3, 5, 7, 13};

    @AfterEach
    void restore() {
        Backends.use(ReferenceBackend.NAME);
    }

    @Test
    void gathersAgreeBitForBit() {
        OpenClBackend opencl = OpenCl.backend();
        Random random = new Random(11);
        for (int trial = 0; trial < 60; trial++) {
            DType dtype = pickType(opencl, random);
            int[] bufferShape = randomShape(random);
            int axis = random.nextInt(bufferShape.length);
            Gather gather = Gather.random(random, dtype, bufferShape, axis, 1 + random.nextInt(6));
            int shift = random.nextInt(3);
            int[] shape = gather.shape;
            // the index is computed in the kernel: a loaded index plus a launch constant
            List<Instruction> program = new ArrayList<>(List.of(
                    Instruction.load(1, DType.INT32, View.contiguous(shape)),
                    Instruction.constant(0, DType.INT32, View.broadcastScalar(shape)),
                    Instruction.apply(Op.ADD, DType.INT32, shape, 0, 1),
                    gather.instruction(0, 2),
                    Instruction.apply(Op.ADD, dtype, shape, 3, 3)));
            Kernel kernel = new Kernel(List.of(dtype, DType.INT32), program);
            HostData index = randomIndex(random, shape, gather.length, -shift);
            KernelAgreement.assertIdentical("gather " + trial, opencl, kernel, List.of(gather.source(random), index),
                    Parameters.ofConstants(shift));
        }
        assertThat(opencl.interpretedKernels()).isEmpty();
    }

    @Test
    void gathersInAReductionPrologueAgree() {
        OpenClBackend opencl = OpenCl.backend();
        Random random = new Random(12);
        for (int trial = 0; trial < 30; trial++) {
            DType dtype = trial % 2 == 0 ? DType.INT32 : DType.FLOAT64; // exact sums in any order
            if (!opencl.capabilities().supports(dtype)) {
                dtype = DType.INT32;
            }
            int[] bufferShape = randomShape(random);
            int axis = random.nextInt(bufferShape.length);
            Gather gather = Gather.random(random, dtype, bufferShape, axis, 1 + random.nextInt(40));
            int[] shape = gather.shape;
            int reduced = random.nextInt(shape.length);
            int[] result = shape.clone();
            result[reduced] = 1;
            List<Instruction> program = List.of(
                    Instruction.load(1, DType.INT32, View.contiguous(shape)),
                    gather.instruction(0, 0),
                    Instruction.reduce(Op.SUM, dtype, result, new int[] {reduced}, 1));
            Kernel kernel = new Kernel(List.of(dtype, DType.INT32), program);
            HostData source = gather.source(random);
            if (dtype == DType.FLOAT64) {
                for (int i = 0; i < source.length(); i++) {
                    source.set(i, Math.rint(source.get(i) * 64)); // small integers: sums exact in any order
                }
            }
            HostData index = randomIndex(random, shape, gather.length, 0);
            KernelAgreement.assertIdentical("sum of a gather " + trial, opencl, kernel, List.of(source, index));
            spoil(random, index, gather.length, 1 + random.nextInt(3));
            assertSameFailure("sum of a gather " + trial + " with bad indices", opencl, kernel, List.of(source, index), -1);
        }
        assertThat(opencl.interpretedKernels()).isEmpty();
    }

    /** out[m, n] = Σ_k table[rows[m, k], k] · weights[k, n] + bias[columns[m, n]]: gathers in a contraction's prologue and epilogue. */
    @Test
    void gathersInAContractionsPrologueAndEpilogueAgree() {
        OpenClBackend opencl = OpenCl.backend();
        Random random = new Random(19);
        int[] lengths = {1, 2, 7, 13, 70};
        for (int trial = 0; trial < 16; trial++) {
            DType dtype = trial % 3 == 0 ? DType.INT32 : pickType(opencl, random);
            int m = lengths[random.nextInt(lengths.length)];
            int k = lengths[random.nextInt(lengths.length)];
            int n = lengths[random.nextInt(lengths.length)];
            int vocabulary = 1 + random.nextInt(9);
            int biases = 1 + random.nextInt(5);
            int[] left = {m, k, 1};
            int[] right = {1, k, n};
            int[] out = {m, n};
            View rightView = View.contiguous(new int[] {k, n}).reshape(right);
            dev.ein4j.kernel.ContractSpec spec = dev.ein4j.kernel.ContractSpec.of(new int[] {m, k, n}, left, right, new int[] {1},
                    View.contiguous(left), rightView, dtype);
            Kernel kernel = new Kernel(List.of(dtype, DType.INT32, dtype, dtype, DType.INT32), List.of(
                    Instruction.load(1, DType.INT32, View.contiguous(left)),
                    Instruction.gather(0, dtype, View.contiguous(new int[] {vocabulary, k}).reshape(new int[] {vocabulary, k, 1})
                            .withShape(left), 0, vocabulary, 0),
                    Instruction.load(2, dtype, rightView),
                    Instruction.contract(dtype, out, spec, 1, 2),
                    Instruction.load(4, DType.INT32, View.contiguous(out)),
                    Instruction.gather(3, dtype, View.contiguous(new int[] {1, biases}).expand(new int[] {m, biases}).withShape(out), 1,
                            biases, 4),
                    Instruction.apply(Op.ADD, dtype, out, 3, 5)));
            List<HostData> inputs = List.of(randomValues(random, dtype, (long) vocabulary * k),
                    randomIndex(random, left, vocabulary, 0), randomValues(random, dtype, (long) k * n),
                    randomValues(random, dtype, biases),
                    randomIndex(random, out, biases, 0));
            KernelAgreement.assertClose("contraction " + trial + " " + dtype, KernelAgreement.launch(opencl, kernel, inputs,
                    Parameters.NONE), dtype == DType.INT32 ? 0.0 : 1e-4, kernel);
            // bad indices in the prologue and the epilogue: the prologue runs first
            spoil(random, inputs.get(1), vocabulary, 1);
            spoil(random, inputs.get(4), biases, 1 + trial % 2);
            assertSameFailure("contraction " + trial + " with bad indices", opencl, kernel, inputs, -1);
        }
        assertThat(opencl.interpretedKernels()).isEmpty();
    }

    /** Through tensors: an embedding lookup fed to a matmul (a contraction's prologue), a gathered bias (its epilogue), a sum. */
    @Test
    void gathersInContractionsAndReductionsOfTensorProgramsCompile() {
        OpenClBackend opencl = OpenCl.backend();
        long interpretedBefore = opencl.interpretedRuns();
        for (int seed = 0; seed < 4; seed++) {
            int vocabulary = 7 + seed;
            int rows = 3 + 5 * seed;
            int width = 4 + seed;
            long s = seed;
            OpenCl.agree("lookup, matmul, gathered bias, sum " + seed, () -> {
                Tensor table = Tensor.rand(new Generator(s), vocabulary, width);
                Tensor weights = Tensor.rand(new Generator(s + 100), width, 5);
                Tensor bias = Tensor.rand(new Generator(s + 200), 1, 9);
                Tensor rowsOf = Tensor.randint(new Generator(s + 300), 0, vocabulary, rows, width);
                Tensor biasAt = Tensor.randint(new Generator(s + 400), 0, 9, rows, 5);
                Tensor product = table.gather(0, rowsOf).matmul(weights);
                Tensor biased = product.add(bias.expand(rows, 9).gather(1, biasAt));
                return biased.add(table.gather(0, rowsOf).sum(new int[] {1}, true));
            });
        }
        assertThat(opencl.interpretedRuns() - interpretedBefore).as("kernels run on the interpreter: %s",
                opencl.interpretedKernels()).isZero();
    }

    @Test
    void scattersAgreeBitForBit() {
        OpenClBackend opencl = OpenCl.backend();
        Random random = new Random(13);
        for (int trial = 0; trial < 60; trial++) {
            DType dtype = pickType(opencl, random);
            int[] base = randomShape(random);
            int axis = random.nextInt(base.length);
            int[] shape = base.clone();
            shape[axis] = 1 + random.nextInt(9); // often more values than positions: duplicates
            boolean accumulate = random.nextBoolean();
            List<Instruction> program = List.of(
                    Instruction.load(0, dtype, View.contiguous(shape)),
                    Instruction.load(1, DType.INT32, View.contiguous(shape)),
                    Instruction.apply(Op.MUL, dtype, shape, 0, 0),
                    Instruction.scatter(dtype, base, axis, accumulate, 2, 1));
            // slot 2 is the base, not read by the kernel: the output is written in its buffer
            Kernel kernel = new Kernel(List.of(dtype, DType.INT32, dtype), program);
            List<HostData> inputs = List.of(randomValues(random, dtype, Shapes.size(shape)), randomIndex(random, shape, base[axis], 0),
                    randomValues(random, dtype, Shapes.size(base)));
            KernelAgreement.assertIdentical("scatter " + (accumulate ? "add " : "set ") + trial, opencl, kernel, inputs,
                    Parameters.NONE, 2);
        }
        assertThat(opencl.interpretedKernels()).isEmpty();
    }

    @Test
    void manyAdditionsAtOnePositionRoundAfterEachAsTheInterpreterDoes() {
        OpenClBackend opencl = OpenCl.backend();
        int values = 5000;
        int[] shape = {values};
        int[] base = {3};
        Kernel kernel = new Kernel(List.of(DType.FLOAT32, DType.INT32, DType.FLOAT32), List.of(
                Instruction.load(0, DType.FLOAT32, View.contiguous(shape)),
                Instruction.load(1, DType.INT32, View.contiguous(shape)),
                Instruction.scatter(DType.FLOAT32, base, 0, true, 0, 1)));
        Random random = new Random(14);
        HostData added = HostData.allocate(DType.FLOAT32, values);
        HostData positions = HostData.allocate(DType.INT32, values);
        for (int i = 0; i < values; i++) {
            added.set(i, (float) (random.nextGaussian() * Math.pow(10, random.nextInt(8) - 4)));
            positions.set(i, random.nextInt(2));
        }
        HostData start = HostData.allocate(DType.FLOAT32, 3);
        start.set(0, 1e-3);
        start.set(1, Float.NaN);
        start.set(2, 7);
        KernelAgreement.assertIdentical("a float32 sum in order", opencl, kernel, List.of(added, positions, start), Parameters.NONE, 2);
    }

    @Test
    void badIndicesThrowTheInterpretersException() {
        OpenClBackend opencl = OpenCl.backend();
        Random random = new Random(15);
        for (int trial = 0; trial < 40; trial++) {
            DType dtype = pickType(opencl, random);
            int[] bufferShape = randomShape(random);
            int axis = random.nextInt(bufferShape.length);
            Gather gather = Gather.random(random, dtype, bufferShape, axis, 1 + random.nextInt(5));
            HostData index = randomIndex(random, gather.shape, gather.length, 0);
            spoil(random, index, gather.length, 1 + random.nextInt(3));
            Kernel kernel = new Kernel(List.of(dtype, DType.INT32), List.of(
                    Instruction.load(1, DType.INT32, View.contiguous(gather.shape)),
                    gather.instruction(0, 0)));
            assertSameFailure("gather " + trial, opencl, kernel, List.of(gather.source(random), index), -1);

            int[] base = bufferShape;
            int[] shape = base.clone();
            shape[axis] = 1 + random.nextInt(5);
            HostData positions = randomIndex(random, shape, base[axis], 0);
            spoil(random, positions, base[axis], 1 + random.nextInt(3));
            Kernel scatter = new Kernel(List.of(dtype, DType.INT32, dtype), List.of(
                    Instruction.load(0, dtype, View.contiguous(shape)),
                    Instruction.load(1, DType.INT32, View.contiguous(shape)),
                    Instruction.scatter(dtype, base, axis, random.nextBoolean(), 0, 1)));
            assertSameFailure("scatter " + trial, opencl, scatter, List.of(randomValues(random, dtype, Shapes.size(shape)), positions,
                    randomValues(random, dtype, Shapes.size(base))), 2);
        }
    }

    /**
     * Two gathers with bad indices: the interpreter evaluates runs of {@link KernelInterpreter#CHUNK_LENGTH}
     * elements, every instruction over a run before the next, and reports the first bad index in that order.
     */
    @Test
    void theFirstBadIndexInTheInterpretersOrderIsReported() {
        OpenClBackend opencl = OpenCl.backend();
        int n = 2 * KernelInterpreter.CHUNK_LENGTH + 100;
        int[] shape = {n};
        Kernel kernel = new Kernel(List.of(DType.FLOAT32, DType.INT32, DType.INT32), List.of(
                Instruction.load(1, DType.INT32, View.contiguous(shape)),
                Instruction.gather(0, DType.FLOAT32, View.contiguous(new int[] {10}).withShape(shape), 0, 10, 0),
                Instruction.load(2, DType.INT32, View.contiguous(shape)),
                Instruction.gather(0, DType.FLOAT32, View.contiguous(new int[] {10}).withShape(shape), 0, 10, 2),
                Instruction.apply(Op.ADD, DType.FLOAT32, shape, 1, 3)));
        HostData table = randomValues(new Random(16), DType.FLOAT32, 10);
        int chunk = KernelInterpreter.CHUNK_LENGTH;
        int[][] cases = { // bad position of the first gather, of the second (-1: none)
            {chunk + 5, 7}, {7, chunk + 5}, {20, 10}, {10, 20}, {n - 1, -1}, {-1, n - 1}, {chunk - 1, chunk}, {chunk, chunk - 1}};
        for (int[] bad : cases) {
            HostData first = HostData.allocate(DType.INT32, n);
            HostData second = HostData.allocate(DType.INT32, n);
            if (bad[0] >= 0) {
                first.set(bad[0], -1 - bad[0]);
            }
            if (bad[1] >= 0) {
                second.set(bad[1], 10 + bad[1]);
            }
            assertSameFailure("bad at " + Arrays.toString(bad), opencl, kernel, List.of(table, first, second), -1);
        }
    }

    @Test
    void failingLaunchesLeakNoBuffersAndLeaveTheBackendUsable() {
        OpenClBackend opencl = OpenCl.backend();
        int[] shape = {64};
        Kernel kernel = new Kernel(List.of(DType.FLOAT32, DType.INT32), List.of(
                Instruction.load(1, DType.INT32, View.contiguous(shape)),
                Instruction.gather(0, DType.FLOAT32, View.contiguous(new int[] {8}).withShape(shape), 0, 8, 0)));
        HostData table = randomValues(new Random(17), DType.FLOAT32, 8);
        HostData bad = HostData.allocate(DType.INT32, 64);
        bad.set(33, 8);
        long before = 0;
        long created = 0;
        for (int round = -3; round < 200; round++) {
            if (round == 0) {
                opencl.synchronize();
                before = OpenClBuffer.liveCount();
                created = opencl.createdBuffers();
            }
            DeviceBuffer source = opencl.allocate(DType.FLOAT32, 8);
            DeviceBuffer index = opencl.allocate(DType.INT32, 64);
            DeviceBuffer output = opencl.allocate(DType.FLOAT32, 64);
            opencl.write(source, table);
            opencl.write(index, bad);
            assertThatThrownBy(() -> opencl.execute(kernel, List.of(output), List.of(source, index), Parameters.NONE))
                    .isInstanceOf(IndexOutOfRangeException.class).hasMessageContaining("index 8 is out of range for axis 0 of length 8");
            opencl.release(source);
            opencl.release(index);
            opencl.release(output);
        }
        opencl.synchronize();
        assertThat(OpenClBuffer.liveCount()).as("live cl_mem objects after failing launches").isLessThanOrEqualTo(before);
        assertThat(opencl.createdBuffers()).as("cl_mem objects created by failing launches").isEqualTo(created);
        HostData good = randomIndex(new Random(18), shape, 8, 0);
        KernelAgreement.assertIdentical("after the failures", opencl, kernel, List.of(table, good));
    }

    /** Runs the kernel on both sides (the output in input slot {@code alias}'s buffer, or one of its own) and compares the failures. */
    private static void assertSameFailure(String what, OpenClBackend opencl, Kernel kernel, List<HostData> inputs, int alias) {
        List<HostData> copies = new ArrayList<>();
        inputs.forEach(input -> copies.add(copy(input)));
        HostData output = alias >= 0 ? copies.get(alias) : HostData.allocate(kernel.outputType(), (int) kernel.outputSize());
        String expected = null;
        try {
            KernelInterpreter.run(kernel, output, copies, Parameters.NONE);
        } catch (IndexOutOfRangeException failure) {
            expected = failure.getMessage();
        }
        assertThat(expected).as("%s: the interpreter rejects the indices", what).isNotNull();
        List<DeviceBuffer> buffers = new ArrayList<>();
        for (HostData input : inputs) {
            DeviceBuffer buffer = opencl.allocate(input.dtype(), input.length());
            opencl.write(buffer, input);
            buffers.add(buffer);
        }
        DeviceBuffer target = alias >= 0 ? buffers.get(alias) : opencl.allocate(kernel.outputType(), kernel.outputSize());
        try {
            assertThatThrownBy(() -> opencl.execute(kernel, List.of(target), buffers, Parameters.NONE)).as(what)
                    .isInstanceOf(IndexOutOfRangeException.class).hasMessage(expected);
        } finally {
            if (alias < 0) {
                opencl.release(target);
            }
            buffers.forEach(opencl::release);
        }
    }

    /** A gather of a random buffer: its source view (permuted, flipped) given the gather's shape. */
    private record Gather(DType dtype, int[] bufferShape, View source, int axis, int[] shape, long length) {

        static Gather random(Random random, DType dtype, int[] bufferShape, int axis, int count) {
            int rank = bufferShape.length;
            int[] order = shuffled(random, rank);
            int[] stored = new int[rank];
            for (int k = 0; k < rank; k++) {
                stored[order[k]] = bufferShape[k];
            }
            // stored is the buffer's row-major shape; axis k of the view is its axis order[k]
            View view = View.contiguous(stored).permute(order);
            boolean[] flips = new boolean[rank];
            for (int k = 0; k < rank; k++) {
                flips[k] = random.nextInt(3) == 0;
            }
            view = view.flip(flips);
            int[] shape = bufferShape.clone();
            shape[axis] = count;
            return new Gather(dtype, bufferShape, view, axis, shape, bufferShape[axis]);
        }

        Instruction instruction(int input, int index) {
            return Instruction.gather(input, dtype, source.withShape(shape), axis, length, index);
        }

        HostData source(Random random) {
            return randomValues(random, dtype, Shapes.size(bufferShape));
        }
    }

    private static int[] shuffled(Random random, int rank) {
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < rank; k++) {
            order.add(k);
        }
        java.util.Collections.shuffle(order, random);
        return order.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int[] randomShape(Random random) {
        int[] shape = new int[1 + random.nextInt(3)];
        for (int k = 0; k < shape.length; k++) {
            shape[k] = LENGTHS[random.nextInt(LENGTHS.length)];
        }
        return shape;
    }

    private static DType pickType(OpenClBackend opencl, Random random) {
        DType[] types = {DType.FLOAT32, DType.FLOAT64, DType.INT32};
        DType dtype = types[random.nextInt(types.length)];
        return opencl.capabilities().supports(dtype) ? dtype : DType.FLOAT32;
    }

    /** Indices in [low, low + length), so many repeat. */
    private static HostData randomIndex(Random random, int[] shape, long length, int low) {
        HostData index = HostData.allocate(DType.INT32, (int) Shapes.size(shape));
        for (int i = 0; i < index.length(); i++) {
            index.set(i, low + random.nextInt((int) length));
        }
        return index;
    }

    /** Puts bad indices (negative, the length, far past it) at random places. */
    private static void spoil(Random random, HostData index, long length, int count) {
        long[] bad = {-1, length, length + 1000, Integer.MIN_VALUE, -7};
        for (int c = 0; c < count; c++) {
            index.set(random.nextInt(index.length()), bad[random.nextInt(bad.length)]);
        }
    }

    private static HostData randomValues(Random random, DType dtype, long size) {
        HostData values = HostData.allocate(dtype, (int) size);
        for (int i = 0; i < size; i++) {
            values.set(i, dtype == DType.INT32 ? random.nextInt(2001) - 1000 : random.nextGaussian() * 3);
        }
        return values;
    }

    private static HostData copy(HostData data) {
        HostData copy = HostData.allocate(data.dtype(), data.length());
        copy.copyFrom(data, 0, 0, data.length());
        return copy;
    }
}
