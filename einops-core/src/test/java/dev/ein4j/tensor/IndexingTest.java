package dev.ein4j.tensor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.backend.Backends;
import dev.ein4j.error.IndexOutOfRangeException;
import dev.ein4j.error.ShapeException;
import dev.ein4j.ir.DType;
import dev.ein4j.ir.Op;
import dev.ein4j.kernel.Kernel;
import dev.ein4j.reference.ReferenceBackend;
import dev.ein4j.runtime.RuntimeContext;
import dev.ein4j.testing.CountingBackend;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Gather, index_select, scatter, masked_fill, cumsum and topk against loops written out here; index
 * errors; gathers fused into their readers; a scatter assigned to its base writing in place.
 */
class IndexingTest {

    private CountingBackend counting;

    @BeforeEach
    void useCountingBackend() {
        counting = (CountingBackend) Backends.use(CountingBackend.NAME);
        counting.reset();
    }

    @AfterEach
    void restoreReference() {
        assertThat(counting.doubleReleases()).isZero();
        Backends.use(ReferenceBackend.NAME);
    }

    private static float[] iota(int n) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = i * 0.5f - 3;
        }
        return values;
    }

    @Test
    void gatherReadsTheIndexedPositionAlongEachDimension() {
        Tensor x = Tensor.of(iota(24), 2, 3, 4);
        float[] v = x.toFloatArray();
        int[] index = {3, 0, 2, 1, 1, 1, 0, 3, 2, 2, 3, 0};
        float[] along2 = x.gather(2, Tensor.of(index, 2, 3, 2)).toFloatArray();
        for (int a = 0; a < 2; a++) {
            for (int b = 0; b < 3; b++) {
                for (int c = 0; c < 2; c++) {
                    assertThat(along2[(a * 3 + b) * 2 + c]).isEqualTo(v[(a * 3 + b) * 4 + index[(a * 3 + b) * 2 + c]]);
                }
            }
        }
        int[] rows = {2, 0, 1, 2, 0, 1};
        float[] along1 = x.gather(1, Tensor.of(rows, 2, 1, 3)).toFloatArray(); // shorter along dim 2: only 3 of 4 columns
        for (int a = 0; a < 2; a++) {
            for (int c = 0; c < 3; c++) {
                assertThat(along1[a * 3 + c]).isEqualTo(v[(a * 3 + rows[a * 3 + c]) * 4 + c]);
            }
        }
        assertThat(x.gather(-1, Tensor.of(new int[0], 2, 3, 0)).shape()).containsExactly(2, 3, 0);
    }

    @Test
    void indexSelectTakesWholeSlicesInTheIndexOrder() {
        Tensor x = Tensor.of(iota(12), 4, 3);
        float[] v = x.toFloatArray();
        float[] picked = x.indexSelect(0, Tensor.of(new int[] {3, 3, 0})).toFloatArray();
        assertThat(picked).containsExactly(v[9], v[10], v[11], v[9], v[10], v[11], v[0], v[1], v[2]);
        assertThat(x.indexSelect(1, Tensor.of(new int[] {2, 0})).toFloatArray()).containsExactly(v[2], v[0], v[5], v[3], v[8], v[6], v[11], v[9]);
    }

    @Test
    void anIndexOutsideItsAxisIsAClearErrorWhenTheLookupRuns() {
        Tensor x = Tensor.of(iota(12), 4, 3);
        assertThatThrownBy(() -> x.indexSelect(0, Tensor.of(new int[] {1, 4})).toFloatArray())
                .isInstanceOf(IndexOutOfRangeException.class).hasMessage("gather: index 4 is out of range for axis 0 of length 4 "
                        + "(indices must be in [0, 4))");
        assertThatThrownBy(() -> x.gather(1, Tensor.of(new int[] {-1, 0, 0, 0}, 4, 1)).toFloatArray())
                .isInstanceOf(IndexOutOfRangeException.class).hasMessageContaining("index -1");
        assertThatThrownBy(() -> x.scatter(0, Tensor.of(new int[] {0, 9, 1}, 1, 3), Tensor.ones(1, 3)).toFloatArray())
                .isInstanceOf(IndexOutOfRangeException.class).hasMessageContaining("scatter: index 9");
        assertThatThrownBy(() -> x.gather(0, Tensor.of(new float[] {0}, 1, 1))).isInstanceOf(ShapeException.class)
                .hasMessageContaining("indices must be int32");
        assertThatThrownBy(() -> x.gather(0, Tensor.of(new int[] {0, 0, 0, 0, 0}, 1, 5))).isInstanceOf(ShapeException.class);
        assertThat(counting.doubleReleases()).as("a failed kernel releases what it took").isZero();
    }

    @Test
    void scatterWritesAndScatterAddAccumulates() {
        Tensor x = Tensor.of(iota(12), 3, 4);
        float[] base = x.toFloatArray();
        Tensor index = Tensor.of(new int[] {2, 0, 2, 1}, 1, 4);
        Tensor src = Tensor.of(new float[] {10, 20, 30, 40, 50, 60, 70, 80}, 2, 4); // only the first row is used
        float[] written = x.scatter(0, index, src).toFloatArray();
        float[] added = x.scatterAdd(0, Tensor.of(new int[] {1, 1, 1, 1, 1, 1, 1, 1}, 2, 4), src).toFloatArray();
        for (int c = 0; c < 4; c++) {
            for (int r = 0; r < 3; r++) {
                int at = r * 4 + c;
                float expected = r == new int[] {2, 0, 2, 1}[c] ? new float[] {10, 20, 30, 40}[c] : base[at];
                assertThat(written[at]).isEqualTo(expected);
                assertThat(added[at]).as("both rows of src add into row 1").isEqualTo(r == 1 ? base[at] + (10 * (c + 1)) + (10 * (c + 5)) : base[at]);
            }
        }
        assertThat(x.toFloatArray()).as("the input is unchanged").isEqualTo(base);
    }

    @Test
    void maskedFillCumsumAndTopk() {
        Tensor x = Tensor.of(new float[] {3, -1, 4, 1, -5, 9, 2, 6}, 2, 4);
        Tensor mask = Tensor.of(new boolean[] {true, false, false, true}, 4);
        assertThat(x.maskedFill(mask, -7).toFloatArray()).containsExactly(-7, -1, 4, -7, -7, 9, 2, -7);
        assertThat(x.cumsum(1).toFloatArray()).containsExactly(3, 2, 6, 7, -5, 4, 6, 12);
        assertThat(x.cumsum(0).toFloatArray()).containsExactly(3, -1, 4, 1, -2, 8, 6, 7);
        Tensor ones = Tensor.ones(DType.INT32, 37);
        int[] running = ones.cumsum(0).toIntArray();
        for (int i = 0; i < 37; i++) {
            assertThat(running[i]).isEqualTo(i + 1);
        }
        TopK top = x.topk(3, 1);
        assertThat(top.values().toFloatArray()).containsExactly(4, 3, 1, 9, 6, 2);
        assertThat(top.indices().toIntArray()).containsExactly(2, 0, 3, 1, 3, 2);
        TopK bottom = x.topk(2, 1, false);
        assertThat(bottom.values().toFloatArray()).containsExactly(-1, 1, -5, 2);
        assertThatThrownBy(() -> x.topk(5, 1)).isInstanceOf(ShapeException.class).hasMessageContaining("k = 5");
    }

    @Test
    void topkFindsInfinitiesAndRanksNanAsPyTorchDoes() {
        float inf = Float.POSITIVE_INFINITY;
        Tensor x = Tensor.of(new float[] {1, -inf, inf, -2}, 4);
        TopK largest = x.topk(4, 0);
        assertThat(largest.values().toFloatArray()).containsExactly(inf, 1, -2, -inf);
        assertThat(largest.indices().toIntArray()).as("a taken position is not found again").containsExactly(2, 0, 3, 1);
        TopK smallest = x.topk(4, 0, false);
        assertThat(smallest.values().toFloatArray()).containsExactly(-inf, -2, 1, inf);
        assertThat(smallest.indices().toIntArray()).containsExactly(1, 3, 0, 2);
        Tensor withNan = Tensor.of(new float[] {1, Float.NaN, 3, inf}, 4);
        assertThat(withNan.topk(2, 0).indices().toIntArray()).as("NaN above every number").containsExactly(1, 3);
        assertThat(withNan.topk(4, 0, false).indices().toIntArray()).as("so last among the smallest").containsExactly(0, 2, 3, 1);
        assertThat(Tensor.of(new float[] {-inf, 2, -inf}, 3).topk(3, 0).indices().toIntArray())
                .as("equal values in their order").containsExactly(1, 0, 2);
    }

    @Test
    void maskedFillConvertsTheValueToTheInputsTypeAsPyTorch() {
        Tensor mask = Tensor.of(new boolean[] {true, false, true});
        Tensor ints = Tensor.of(new int[] {1, 2, 3});
        assertThat(ints.maskedFill(mask, 2.7).dtype()).isEqualTo(DType.INT32);
        assertThat(ints.maskedFill(mask, 2.7).toIntArray()).as("truncated").containsExactly(2, 2, 2);
        assertThat(ints.maskedFill(mask, -2.5).toIntArray()).containsExactly(-2, 2, -2);
        Tensor flags = Tensor.of(new boolean[] {false, false, true});
        assertThat(flags.maskedFill(mask, 0.5).dtype()).isEqualTo(DType.BOOL);
        assertThat(flags.maskedFill(mask, 0.5).toIntArray()).containsExactly(1, 0, 1);
        assertThat(flags.maskedFill(mask, 0).toIntArray()).containsExactly(0, 0, 0);
        Tensor floats = Tensor.of(new float[] {1, 2, 3});
        assertThat(floats.maskedFill(mask, Double.NEGATIVE_INFINITY).toFloatArray())
                .containsExactly(Float.NEGATIVE_INFINITY, 2, Float.NEGATIVE_INFINITY);
        assertThatThrownBy(() -> floats.maskedFill(mask, 1e40)).isInstanceOf(dev.ein4j.error.EinopsException.class)
                .hasMessageContaining("masked_fill").hasMessageContaining("1.0E40").hasMessageContaining("float32");
        assertThatThrownBy(() -> ints.maskedFill(mask, Double.NaN)).isInstanceOf(dev.ein4j.error.EinopsException.class)
                .hasMessageContaining("int32");
        assertThatThrownBy(() -> ints.maskedFill(mask, 2147483648.0)).isInstanceOf(dev.ein4j.error.EinopsException.class);
        assertThat(ints.maskedFill(mask, -2147483648.0).toIntArray()).containsExactly(Integer.MIN_VALUE, 2, Integer.MIN_VALUE);
    }

    @Test
    void maskedFillBroadcastsTheInputAndTheMaskTogether() {
        Tensor x = Tensor.of(new float[] {1, 2, 3});
        Tensor mask = Tensor.of(new boolean[] {true, false, false, false, false, true}, 2, 3);
        Tensor filled = x.maskedFill(mask, -1);
        assertThat(filled.shape()).as("as torch.masked_fill, not the in-place masked_fill_").containsExactly(2, 3);
        assertThat(filled.toFloatArray()).containsExactly(-1, 2, 3, 1, 2, -1);
        assertThatThrownBy(() -> x.maskedFill(Tensor.of(new boolean[] {true, false}), 0)).isInstanceOf(ShapeException.class)
                .hasMessageContaining("masked_fill");
    }

    @Test
    void aGatherFusesIntoTheKernelThatReadsIt() {
        Tensor table = Tensor.of(iota(40), 10, 4).realize();
        Tensor ids = Tensor.of(new int[] {7, 1, 7, 0, 9, 2}, 6).realize();
        Tensor positions = Tensor.of(iota(24), 6, 4).realize();
        counting.reset();
        float[] embedded = table.indexSelect(0, ids).add(positions).relu().toFloatArray();
        assertThat(counting.kernels()).as("lookup, add and relu: one kernel").hasSize(1);
        assertThat(counting.computed(Op.GATHER)).isEqualTo(1);
        float[] t = table.toFloatArray();
        float[] p = positions.toFloatArray();
        int[] rows = {7, 1, 7, 0, 9, 2};
        for (int r = 0; r < 6; r++) {
            for (int c = 0; c < 4; c++) {
                assertThat(embedded[r * 4 + c]).isEqualTo(Math.max(0, t[rows[r] * 4 + c] + p[r * 4 + c]));
            }
        }
    }

    @Test
    void aScatterAssignedToItsBaseWritesOnlyTheNewValuesInPlaceAndReplays() {
        int steps = 5;
        Tensor cache = Tensor.zeros(2, steps, 3).contiguous().realize();
        RuntimeContext.Statistics before = null;
        for (int t = 0; t < steps; t++) {
            Tensor values = Tensor.full(t + 1.0, DType.FLOAT32, 2, 1, 3);
            Tensor position = Tensor.full(t, DType.INT32, 2, 1, 3); // a number: a parameter, so every step replays
            counting.reset();
            cache.assign(cache.scatter(1, position, values));
            List<Kernel> ran = counting.kernels();
            assertThat(ran).as("step " + t + ": no copy of the cache, one scatter").hasSize(1);
            assertThat(ran.get(0).kind()).isEqualTo(Kernel.Kind.SCATTER);
            assertThat(counting.allocations()).as("written in place").isZero();
            if (t == 0) {
                before = RuntimeContext.global().statistics();
            }
        }
        assertThat(RuntimeContext.global().statistics().since(before).schedulesBuilt()).as("later steps replay").isZero();
        float[] filled = cache.toFloatArray();
        for (int b = 0; b < 2; b++) {
            for (int t = 0; t < steps; t++) {
                for (int c = 0; c < 3; c++) {
                    assertThat(filled[(b * steps + t) * 3 + c]).isEqualTo(t + 1.0f);
                }
            }
        }
    }
}
