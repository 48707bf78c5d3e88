package dev.ein4j.cpu.gemm;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The data cache sizes one core sees, in bytes, as the operating system reports them. On Linux they are
 * read from {@code /sys/devices/system/cpu/cpu0/cache/index*} ({@code level}, {@code type}, {@code size}:
 * the first Data or Unified cache of each level). Where that is missing (other systems, containers that
 * hide sysfs) each unknown level falls back to {@link #FALLBACK}: 32 KiB L1d, 256 KiB L2, 8 MiB L3, at or
 * below what x86 and ARM server cores of the last ten years have, so that the blocks derived from them
 * fit rather than spill.
 *
 * @param level1Data the first-level data cache
 * @param level2 the second-level cache (per core on current x86 and ARM server parts)
 * @param level3 the last-level cache, shared by several cores (0 when there is none)
 */
public record CacheSizes(long level1Data, long level2, long level3) {

    /** What is assumed for a level the system does not report. */
    static final CacheSizes FALLBACK = new CacheSizes(32 * 1024, 256 * 1024, 8 * 1024 * 1024);

    /** Where Linux describes the first CPU's caches. */
    static final Path LINUX_CACHES = Path.of("/sys/devices/system/cpu/cpu0/cache");

    /**
     * @return this machine's caches, {@link #FALLBACK} for each level it does not report; read once (a
     *     read lists and parses a dozen files, about 0.1 ms, which a caller per product would pay again)
     */
    public static CacheSizes ofMachine() {
        return Machine.CACHES;
    }

    /** The sizes read on first use. */
    private static final class Machine {
        static final CacheSizes CACHES = read(LINUX_CACHES);
    }

    /**
     * @param directory a directory laid out as Linux's {@code /sys/devices/system/cpu/cpu0/cache}
     * @return the sizes found there, {@link #FALLBACK} for each level missing or unreadable
     */
    static CacheSizes read(Path directory) {
        long[] sizes = new long[4];
        if (Files.isDirectory(directory)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, "index*")) {
                for (Path entry : entries) {
                    readIndex(entry, sizes);
                }
            } catch (IOException | RuntimeException e) {
                // an unreadable listing: every level takes its fallback below
            }
        }
        return new CacheSizes(sizes[1] > 0 ? sizes[1] : FALLBACK.level1Data,
                sizes[2] > 0 ? sizes[2] : FALLBACK.level2, sizes[3] > 0 ? sizes[3] : FALLBACK.level3);
    }

    /** Records one {@code index*} entry's size under its level, the first data or unified cache per level. */
    private static void readIndex(Path entry, long[] sizes) {
        try {
            String type = Files.readString(entry.resolve("type")).trim();
            if (type.equalsIgnoreCase("Instruction")) {
                return;
            }
            int level = Integer.parseInt(Files.readString(entry.resolve("level")).trim());
            long size = parseSize(Files.readString(entry.resolve("size")));
            if (level >= 1 && level <= 3 && size > 0 && sizes[level] == 0) {
                sizes[level] = size;
            }
        } catch (IOException | RuntimeException e) {
            // this entry is unreadable or malformed; its level falls back unless another entry has it
        }
    }

    /**
     * @param text a sysfs size such as {@code 48K}, {@code 1024K}, {@code 32M} or a plain byte count
     * @return the bytes, or -1 when the text is not a size
     */
    static long parseSize(String text) {
        String s = text.trim().toUpperCase(Locale.ROOT);
        long unit = 1;
        if (s.endsWith("K")) {
            unit = 1024;
        } else if (s.endsWith("M")) {
            unit = 1024 * 1024;
        } else if (s.endsWith("G")) {
            unit = 1024L * 1024 * 1024;
        }
        String digits = unit == 1 ? s : s.substring(0, s.length() - 1);
        try {
            long value = Long.parseLong(digits.trim());
            return value > 0 && value <= Long.MAX_VALUE / unit ? value * unit : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
