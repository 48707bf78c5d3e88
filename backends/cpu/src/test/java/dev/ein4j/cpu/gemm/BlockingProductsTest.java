package dev.ein4j.cpu.gemm;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The blocked loops give the same C for any blocks the derivation, the tuner or a property can pick:
 * blocks of one tile and one step, blocks that do not divide the sizes, the derived ones for small and
 * large caches and their tuned neighbours; sizes of 1, primes and non-multiples of the tile.
 */
class BlockingProductsTest {

    private static final Kernels KERNELS = Kernels.load();

    @Test
    void floatProductsUnderManyBlockings() {
        FloatKernel kernel = KERNELS.floats();
        Random random = new Random(17);
        for (Blocking blocking : blockings(kernel.mr(), kernel.nr(), Float.BYTES)) {
            for (int[] size : sizes(blocking)) {
                BlockingProducts.checkFloat(kernel, blocking, size[0], size[1], size[2], random);
            }
        }
    }

    @Test
    void doubleProductsUnderManyBlockings() {
        DoubleKernel kernel = KERNELS.doubles();
        Random random = new Random(19);
        for (Blocking blocking : blockings(kernel.mr(), kernel.nr(), Double.BYTES)) {
            for (int[] size : sizes(blocking)) {
                BlockingProducts.checkDouble(kernel, blocking, size[0], size[1], size[2], random);
            }
        }
    }

    private static Blocking[] blockings(int mr, int nr, int bytes) {
        CacheSizes tiny = new CacheSizes(1024, 4096, 0);
        return new Blocking[] {new Blocking(mr, nr, mr, nr, 1), new Blocking(mr, nr, 3 * mr, 2 * nr, 7),
            Blocking.derive(mr, nr, bytes, tiny), Blocking.derive(mr, nr, bytes, tiny).scaled(-1, 1, 1),
            Blocking.derive(mr, nr, bytes, CacheSizes.FALLBACK).scaled(1, -1, -1),
            Blocking.derive(mr, nr, bytes, CacheSizes.ofMachine())};
    }

    /** Sizes around the blocks: 1, a prime, one past a block, a block and a half. */
    private static int[][] sizes(Blocking blocking) {
        int m = Math.min(blocking.mc(), 300);
        int n = Math.min(blocking.nc(), 300);
        int k = Math.min(blocking.kc(), 300);
        return new int[][] {{1, 1, 1}, {1, 13, 29}, {7, 1, 3}, {m + 1, n + 1, k + 1}, {m + m / 2, n + 3, 2 * k + 5},
            {31, 97, k + k / 2}};
    }
}
