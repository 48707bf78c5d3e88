package dev.ein4j.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ein4j.kernel.ContractSpec;
import org.junit.jupiter.api.Test;

/** The contraction offset tables kept between launches: shared, equal to fresh ones, bounded. */
class OffsetTablesTest {

    @Test
    void aLayoutMetAgainGetsTheSameTable() {
        OffsetTables tables = new OffsetTables();
        int[] lengths = {128, 28, 28};
        long[] strides = {900, 30, 1};
        long[] first = tables.offsets(lengths, strides);
        assertThat(first).isEqualTo(ContractSpec.offsets(lengths, strides));
        assertThat(tables.offsets(lengths.clone(), strides.clone())).isSameAs(first);
        strides[0] = 901; // the caller's arrays are not the key
        assertThat(tables.offsets(new int[] {128, 28, 28}, new long[] {900, 30, 1})).isSameAs(first);
        assertThat(tables.offsets(lengths, strides)).isNotSameAs(first).isEqualTo(ContractSpec.offsets(lengths, strides));
    }

    @Test
    void theLeastRecentlyUsedGoPastTheCapacityAndHugeTablesAreNotKept() {
        OffsetTables tables = new OffsetTables();
        int quarter = (int) (OffsetTables.CAPACITY / 4);
        long[] kept = tables.offsets(new int[] {quarter}, new long[] {1});
        for (int stride = 2; stride < 6; stride++) {
            tables.offsets(new int[] {quarter}, new long[] {stride});
            assertThat(tables.offsets(new int[] {quarter}, new long[] {1})).as("used again: kept").isSameAs(kept);
        }
        assertThat(tables.kept()).isLessThanOrEqualTo(OffsetTables.CAPACITY);
        long[] evicted = tables.offsets(new int[] {quarter}, new long[] {2});
        assertThat(tables.offsets(new int[] {quarter}, new long[] {2})).isSameAs(evicted);
        int huge = (int) OffsetTables.CAPACITY + 1;
        long before = tables.kept();
        assertThat(tables.offsets(new int[] {huge}, new long[] {1})).hasSize(huge);
        assertThat(tables.kept()).isEqualTo(before);
    }
}
