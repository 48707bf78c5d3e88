package dev.ein4j.cpu.gemm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A test operand's physical layout: the logical [batch, rows, cols] tensor with rows and columns each
 * possibly split into two dimensions (a multi-dimensional index group), all dimensions laid out in some
 * order with row-major strides (plus optional gaps), some possibly broadcast (stride 0), from a base
 * offset. Gives the {@link Operand} tables and the array size they need.
 */
final class Layout {

    final Operand operand;
    /** One past the largest offset the tables reach. */
    final int size;

    private Layout(Operand operand, int size) {
        this.operand = operand;
        this.size = size;
    }

    /** Row-major [batches, rows, cols], tightly packed. */
    static Layout rowMajor(int batches, int rows, int cols) {
        return new Layout(new Operand(0, progression(batches, (long) rows * cols), progression(rows, cols),
                progression(cols, 1)), Math.max(1, batches * rows * cols));
    }

    /** Row-major [batches, cols, rows] read as [batches, rows, cols]: the transpose of a stored matrix. */
    static Layout transposed(int batches, int rows, int cols) {
        return new Layout(new Operand(0, progression(batches, (long) rows * cols), progression(rows, 1),
                progression(cols, rows)), Math.max(1, batches * rows * cols));
    }

    /**
     * A random layout.
     *
     * @param broadcasts whether dimensions may have stride 0 (never for an output)
     */
    static Layout random(Random random, int batches, int rows, int cols, boolean broadcasts) {
        int rows2 = divisor(random, rows);
        int cols2 = divisor(random, cols);
        // dimensions: 0 batch, 1 rows outer, 2 rows inner, 3 cols outer, 4 cols inner
        int[] extent = {batches, rows / Math.max(rows2, 1), rows2, cols / Math.max(cols2, 1), cols2};
        List<Integer> order = new ArrayList<>(List.of(0, 1, 2, 3, 4));
        Collections.shuffle(order, random);
        long[] stride = new long[5];
        long next = 1;
        for (int i = order.size() - 1; i >= 0; i--) {
            int d = order.get(i);
            boolean broadcast = broadcasts && extent[d] > 1 && random.nextInt(6) == 0;
            stride[d] = broadcast ? 0 : next;
            if (!broadcast) {
                next *= Math.max(1, extent[d]) + (random.nextInt(4) == 0 ? random.nextInt(3) : 0);
            }
        }
        long base = random.nextInt(5);
        long[] batch = progression(batches, stride[0]);
        long[] r = grouped(rows, rows2, stride[1], stride[2]);
        long[] c = grouped(cols, cols2, stride[3], stride[4]);
        return new Layout(new Operand(base, batch, r, c), (int) (base + next + 1));
    }

    /** @return a random divisor of n (1 or n included), as the inner extent of a split */
    private static int divisor(Random random, int n) {
        if (n <= 1) {
            return Math.max(n, 1);
        }
        List<Integer> divisors = new ArrayList<>();
        for (int d = 1; d <= n; d++) {
            if (n % d == 0) {
                divisors.add(d);
            }
        }
        return divisors.get(random.nextInt(divisors.size()));
    }

    private static long[] grouped(int n, int inner, long outerStride, long innerStride) {
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            t[i] = (i / inner) * outerStride + (i % inner) * innerStride;
        }
        return t;
    }

    static long[] progression(int n, long stride) {
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            t[i] = i * stride;
        }
        return t;
    }
}
