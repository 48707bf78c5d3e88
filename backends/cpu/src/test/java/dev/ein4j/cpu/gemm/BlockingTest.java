package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The formulas of {@link Blocking#derive}, worked by hand for a few machines' caches. */
class BlockingTest {

    private static final CacheSizes ZEN5 = new CacheSizes(48 * 1024, 1024 * 1024, 32L << 20);
    private static final CacheSizes XEON = new CacheSizes(48 * 1024, 2048 * 1024, 105L << 20);

    @Test
    void zen5FloatGivesTheBlocksMeasuredThere() {
        // B panel: 512 KiB = 131072 floats, √ = 362 → kc 256, nc 131072 / 256 = 512; A panel 256 KiB / 1 KiB
        assertThat(Blocking.derive(5, 64, 4, ZEN5)).isEqualTo(new Blocking(5, 64, 260, 512, 256));
    }

    @Test
    void zen5Double() {
        // 65536 doubles, √ = 256 → kc 256, nc 256; A: 256 KiB / 2 KiB = 128 → 130 rows
        assertThat(Blocking.derive(5, 32, 8, ZEN5)).isEqualTo(new Blocking(5, 32, 130, 256, 256));
    }

    @Test
    void aLargerL2GivesDeeperAndWiderPanels() {
        // 1 MiB = 262144 floats, √ = 512 → kc 512, nc 512; A: 512 KiB / 2 KiB = 256 → 260
        assertThat(Blocking.derive(5, 64, 4, XEON)).isEqualTo(new Blocking(5, 64, 260, 512, 512));
    }

    @Test
    void theFallbackCaches() {
        // 128 KiB = 32768 floats, √ = 181 → kc 128, nc 256; A: 64 KiB / 512 B = 128 → 130
        assertThat(Blocking.derive(5, 64, 4, CacheSizes.FALLBACK)).isEqualTo(new Blocking(5, 64, 130, 256, 128));
        assertThat(Blocking.derive(4, 4, 8, CacheSizes.FALLBACK)).isEqualTo(new Blocking(4, 4, 64, 128, 128));
    }

    @Test
    void aSmallL1CapsKcSoThatTheASliverFitsInHalfOfIt() {
        CacheSizes smallL1 = new CacheSizes(8 * 1024, 4096 * 1024, 0);
        // √(2 MiB / 4) = 724 → 512, but 4 KiB / (5 · 4 B) = 204 slivers → 128
        Blocking blocking = Blocking.derive(5, 64, 4, smallL1);
        assertThat(blocking.kc()).isEqualTo(128);
        assertThat(blocking.nc()).isEqualTo(4096);
    }

    @Test
    void tinyCachesStillGiveWholeTilesAndTheLeastKc() {
        Blocking blocking = Blocking.derive(5, 64, 8, new CacheSizes(1024, 2048, 0));
        assertThat(blocking.kc()).isEqualTo(Blocking.MIN_KC);
        assertThat(blocking.nc()).isEqualTo(64);
        assertThat(blocking.mc()).isEqualTo(5);
    }

    @Test
    void hugeCachesAreCapped() {
        Blocking blocking = Blocking.derive(5, 64, 4, new CacheSizes(1L << 40, 1L << 42, 0));
        assertThat(blocking.nc()).isLessThanOrEqualTo(Blocking.MAX_BLOCK);
        assertThat(blocking.mc()).isLessThanOrEqualTo(Blocking.MAX_BLOCK + 5);
        assertThat(blocking.kc()).isLessThanOrEqualTo(Blocking.MAX_BLOCK);
        assertThat(blocking.nc() % 64).isZero();
        assertThat(blocking.mc() % 5).isZero();
    }

    @Test
    void scalingKeepsWholeTiles() {
        Blocking derived = new Blocking(5, 64, 255, 512, 256);
        assertThat(derived.scaled(0, 0, 0)).isEqualTo(derived);
        assertThat(derived.scaled(1, -1, 1)).isEqualTo(new Blocking(5, 64, 510, 256, 512));
        assertThat(derived.scaled(-1, 1, -1)).isEqualTo(new Blocking(5, 64, 130, 1024, 128));
        assertThat(new Blocking(5, 64, 5, 64, 1).scaled(-1, -1, -1)).isEqualTo(new Blocking(5, 64, 5, 64, 1));
    }

    @Test
    void forcedValuesReplaceTheirBlocksOnly() {
        Blocking derived = new Blocking(5, 64, 255, 512, 256);
        assertThat(derived.forced(0, 0, 0)).isEqualTo(derived);
        assertThat(derived.forced(100, 0, 0)).isEqualTo(new Blocking(5, 64, 255, 512, 100));
        assertThat(derived.forced(0, 100, 12)).isEqualTo(new Blocking(5, 64, 15, 128, 256));
    }
}
