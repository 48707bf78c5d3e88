package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads cache sizes from directories laid out as Linux's sysfs, and falls back per missing level. */
class CacheSizesTest {

    @TempDir
    Path sysfs;

    @Test
    void readsEachLevelsDataOrUnifiedCache() throws IOException {
        index(0, 1, "Data", "48K");
        index(1, 1, "Instruction", "32K");
        index(2, 2, "Unified", "1024K");
        index(3, 3, "Unified", "32768K");
        assertThat(CacheSizes.read(sysfs)).isEqualTo(new CacheSizes(48 * 1024, 1024 * 1024, 32L * 1024 * 1024));
    }

    /** Read once: a product that asks for them (the dot path's chunk) must not list sysfs every time. */
    @Test
    void theMachinesSizesAreReadOnceAndMatchTheSystem() {
        assertThat(CacheSizes.ofMachine()).isSameAs(CacheSizes.ofMachine());
        assertThat(CacheSizes.ofMachine()).isEqualTo(CacheSizes.read(CacheSizes.LINUX_CACHES));
    }

    @Test
    void aMissingDirectoryGivesTheFallback() {
        assertThat(CacheSizes.read(sysfs.resolve("absent"))).isEqualTo(CacheSizes.FALLBACK);
    }

    @Test
    void aMissingOrMalformedLevelFallsBackAlone() throws IOException {
        index(0, 1, "Data", "64K");
        index(2, 2, "Unified", "lots");
        Files.createDirectories(sysfs.resolve("index3"));
        assertThat(CacheSizes.read(sysfs))
                .isEqualTo(new CacheSizes(64 * 1024, CacheSizes.FALLBACK.level2(), CacheSizes.FALLBACK.level3()));
    }

    @Test
    void parsesTheSizeSuffixes() {
        assertThat(CacheSizes.parseSize("48K\n")).isEqualTo(48 * 1024);
        assertThat(CacheSizes.parseSize("2M")).isEqualTo(2 * 1024 * 1024);
        assertThat(CacheSizes.parseSize("1G")).isEqualTo(1024L * 1024 * 1024);
        assertThat(CacheSizes.parseSize("4096")).isEqualTo(4096);
        assertThat(CacheSizes.parseSize("0K")).isEqualTo(-1);
        assertThat(CacheSizes.parseSize("-5K")).isEqualTo(-1);
        assertThat(CacheSizes.parseSize("K")).isEqualTo(-1);
        assertThat(CacheSizes.parseSize("99999999999999999999G")).isEqualTo(-1);
        assertThat(CacheSizes.parseSize("9000000000000G")).isEqualTo(-1);
    }

    @Test
    void thisMachinesSizesArePositive() {
        CacheSizes machine = CacheSizes.ofMachine();
        assertThat(machine.level1Data()).isPositive();
        assertThat(machine.level2()).isPositive();
        assertThat(machine.level3()).isPositive();
    }

    private void index(int number, int level, String type, String size) throws IOException {
        Path entry = Files.createDirectories(sysfs.resolve("index" + number));
        Files.writeString(entry.resolve("level"), level + "\n");
        Files.writeString(entry.resolve("type"), type + "\n");
        Files.writeString(entry.resolve("size"), size + "\n");
    }
}
