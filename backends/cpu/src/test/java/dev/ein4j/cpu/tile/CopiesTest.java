package dev.ein4j.cpu.tile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.cpu.WorkerPool;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Shapes;
import dev.ein4j.ir.View;
import dev.ein4j.kernel.HostData;
import dev.ein4j.kernel.Instruction;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.kernel.KernelInterpreter;
import dev.ein4j.kernel.Parameters;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Single-load kernels copied row by row, against the interpreter bit for bit: a table of views. */
class CopiesTest {

    /** A view of a buffer of {@code bufferLength} elements. */
    record Case(String name, View view, int bufferLength) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        View image = View.contiguous(new int[] {4, 6, 5, 7});
        View pooled = View.contiguous(new int[] {2, 3, 4, 4});
        View big = View.contiguous(new int[] {64, 32, 14, 14});
        return Stream.of(
                new Case("pad 1 before, 2 after on h and w", image.pad(new int[] {0, 0, 1, 1}, new int[] {0, 0, 2, 2}, 0.0), 840),
                new Case("pad of every axis with 3.5", image.pad(new int[] {1, 0, 2, 0}, new int[] {0, 2, 1, 3}, 3.5), 840),
                new Case("channel broadcast", View.contiguous(new int[] {3, 1, 5}).expand(new int[] {3, 4, 5}), 15),
                new Case("pooled gradient over its 2 x 2 windows", pooled.reshape(new int[] {2, 3, 4, 1, 4, 1})
                        .expand(new int[] {2, 3, 4, 2, 4, 2}), 96),
                new Case("transpose", View.contiguous(new int[] {7, 9, 11}).permute(new int[] {2, 0, 1}), 693),
                new Case("slice with an offset", View.contiguous(new int[] {10, 12}).shrink(new int[] {2, 3}, new int[] {9, 11}), 120),
                new Case("flip", View.contiguous(new int[] {6, 8}).flip(new boolean[] {true, false}), 48),
                new Case("a padded broadcast", View.contiguous(new int[] {3, 1}).expand(new int[] {3, 6})
                        .pad(new int[] {1, 2}, new int[] {1, 0}, -1.0), 3),
                new Case("a scalar", View.contiguous(new int[0]), 1),
                new Case("one long row (parallel pieces)", View.contiguous(new int[] {200_000}), 200_000),
                new Case("a large pad (parallel rows)", big.pad(new int[] {0, 0, 2, 2}, new int[] {0, 0, 2, 2}, 0.0), 64 * 32 * 196),
                new Case("a large transpose", View.contiguous(new int[] {96, 64, 50}).permute(new int[] {1, 2, 0}), 96 * 64 * 50),
                // in tiles (TransposedCopy): sizes that leave partial tiles on both axes
                new Case("b c h w -> b h w c in tiles", View.contiguous(new int[] {3, 40, 9, 11}).permute(new int[] {0, 2, 3, 1}), 11_880),
                new Case("a 1000 x 37 matrix transposed in tiles", View.contiguous(new int[] {1000, 37}).permute(new int[] {1, 0}), 37_000),
                new Case("a 37 x 1000 matrix transposed in tiles", View.contiguous(new int[] {37, 1000}).permute(new int[] {1, 0}), 37_000),
                new Case("a transpose flipped along its row, in tiles", View.contiguous(new int[] {300, 70}).permute(new int[] {1, 0})
                        .flip(new boolean[] {false, true}), 21_000),
                new Case("a slice transposed, in tiles", View.contiguous(new int[] {200, 90}).shrink(new int[] {5, 20}, new int[] {180, 90})
                        .permute(new int[] {1, 0}), 18_000))
                .flatMap(c -> Stream.of(Arguments.of(c, DType.FLOAT32), Arguments.of(c, DType.FLOAT64)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void copiesAsTheInterpreterReads(Case c, DType type) {
        Kernel kernel = new Kernel(List.of(type), List.of(Instruction.load(0, type, c.view())));
        assertThat(Copies.supports(kernel)).isTrue();
        Random random = new Random(c.name().hashCode());
        double[] values = new double[c.bufferLength()];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextInt(9) == 0 ? Double.NaN : random.nextGaussian();
        }
        List<HostData> inputs = List.of(HostData.fromDoubles(type, values));
        int size = (int) Shapes.size(c.view().shape());
        HostData expected = HostData.allocate(type, size);
        KernelInterpreter.run(kernel, expected, inputs, Parameters.NONE);
        HostData actual = BitEqual.unwritten(type, size);
        new Copies(WorkerPool.shared()).run(kernel, actual, inputs);
        BitEqual.assertBitEqual(c.name(), expected, actual);
    }

    @Test
    void onlySingleFloatLoadsAreCopies() {
        View view = View.contiguous(new int[] {4});
        assertThat(Copies.supports(new Kernel(List.of(DType.INT32), List.of(Instruction.load(0, DType.INT32, view)))))
                .as("an integer load").isFalse();
        Kernel twoInstructions = new Kernel(List.of(DType.FLOAT32), List.of(Instruction.load(0, DType.FLOAT32, view),
                Instruction.load(0, DType.FLOAT32, view.flip(new boolean[] {true}))));
        assertThat(Copies.supports(twoInstructions)).as("two loads").isFalse();
    }
}
