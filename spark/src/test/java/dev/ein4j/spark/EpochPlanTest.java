package dev.ein4j.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Epoch orders are permutations that change with the epoch; batches split evenly; the partial batch is dropped. */
class EpochPlanTest {

    @Test
    void sharesDifferByAtMostOneAndCoverTheBatch() {
        BatchSplit split = new BatchSplit(128, 3);
        assertThat(new int[] {split.share(0), split.share(1), split.share(2)}).containsExactly(42, 43, 43);
        int[] owners = new int[128];
        for (int position = 0; position < 128; position++) {
            owners[position] = split.workerOf(position);
            assertThat(position).isBetween(split.offset(owners[position]), split.offset(owners[position]) + split.share(owners[position]) - 1);
        }
        assertThat(owners).startsWith(0).endsWith(2).isSorted();
        BatchSplit one = new BatchSplit(5, 5);
        for (int position = 0; position < 5; position++) {
            assertThat(one.workerOf(position)).isEqualTo(position);
        }
    }

    @Test
    void anEpochVisitsEachExampleOnceInASeededOrderThatChangesWithTheEpoch() {
        BatchSplit split = new BatchSplit(10, 2);
        EpochPlan first = EpochPlan.create(105, split, true, 7, 1);
        assertThat(first.steps()).isEqualTo(10);
        long[] positions = new long[105];
        for (int index = 0; index < 105; index++) {
            positions[index] = first.position(index);
        }
        long[] used = Arrays.stream(positions).filter(p -> p >= 0).sorted().toArray();
        assertThat(used).as("the kept positions are 0 .. 99, each once").hasSize(100).startsWith(0).endsWith(99);
        for (int i = 0; i < used.length; i++) {
            assertThat(used[i]).isEqualTo(i);
        }
        assertThat(Arrays.stream(positions).filter(p -> p < 0).count()).as("the partial batch of 5 is dropped").isEqualTo(5);
        EpochPlan again = EpochPlan.create(105, split, true, 7, 1);
        EpochPlan second = EpochPlan.create(105, split, true, 7, 2);
        int moved = 0;
        for (int index = 0; index < 105; index++) {
            assertThat(again.position(index)).isEqualTo(positions[index]);
            moved += second.position(index) != positions[index] ? 1 : 0;
        }
        assertThat(moved).as("epoch 2's order differs").isGreaterThan(80);
    }

    @Test
    void withoutShufflingBatchSIsRowsSTimesNOnwards() {
        EpochPlan plan = EpochPlan.create(25, new BatchSplit(8, 2), false, 7, 3);
        assertThat(plan.steps()).isEqualTo(3);
        for (int index = 0; index < 24; index++) {
            assertThat(plan.position(index)).isEqualTo(index);
        }
        assertThat(plan.position(24)).isEqualTo(-1);
    }
}
