package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ein4j.cpu.WorkerPool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the settings are resolved: properties, the cache file, a fresh tune (with scripted timings); and
 * once with the real clock on this machine, checking only that the result is usable, never its timings.
 */
class GemmSettingsTest {

    private static final CacheSizes ZEN5 = new CacheSizes(48 * 1024, 1024 * 1024, 32L << 20);
    private static final GemmSettings.Machine MACHINE = new GemmSettings.Machine(ZEN5, TuningCacheTest.KEY, 5,
            64, 2);

    @TempDir
    Path directory;

    private final Map<String, String> properties = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();
    private int tunes;

    /** Trials under which kc × 2 (nc, mc kept) is clearly fastest and the workers win from 128³ on. */
    private final Supplier<Tuner.Trials> trials = () -> {
        tunes++;
        return new Tuner.Trials() {
            @Override
            public void warmUp() {
            }

            @Override
            public double blocked(Blocking blocking) {
                return blocking.kc() == 512 && blocking.nc() == 512 && blocking.mc() == 260 ? 0.5 : 1.0;
            }

            @Override
            public double serial(int size) {
                return 1.0;
            }

            @Override
            public double parallel(int size) {
                return size >= 128 ? 0.5 : 2.0;
            }
        };
    };

    private static final Supplier<Tuner.Trials> NEVER = () -> {
        throw new AssertionError("no tune was expected");
    };

    private GemmSettings resolve(Supplier<Tuner.Trials> with) {
        properties.put(GemmSettings.CACHE_DIRECTORY_PROPERTY, directory.toString());
        return GemmSettings.resolve(properties::get, MACHINE, with, warnings::add);
    }

    @Test
    void tunesOnceAndThenReadsTheFile() {
        GemmSettings first = resolve(trials);
        assertThat(tunes).isEqualTo(1);
        assertThat(first.blocking(5, 64, 4)).isEqualTo(new Blocking(5, 64, 260, 512, 512));
        assertThat(first.serialWork()).isEqualTo(Math.sqrt(96.0 * 96 * 96 * 128 * 128 * 128), within(1e-6));
        GemmSettings second = resolve(NEVER);
        assertThat(second.tuning()).isEqualTo(first.tuning());
        assertThat(warnings).isEmpty();
    }

    @Test
    void theTuningScalesTheDoubleBlocksToo() {
        GemmSettings settings = resolve(trials);
        assertThat(settings.blocking(5, 32, 8)).isEqualTo(Blocking.derive(5, 32, 8, ZEN5).scaled(1, 0, 0));
    }

    @Test
    void aCorruptFileIsRetunedWithOneWarningAndReplaced() throws IOException {
        Path file = new TuningCache(directory, MACHINE.key(), warnings::add).file();
        Files.writeString(file, "format=1\nkcShift=[broken\n");
        GemmSettings settings = resolve(trials);
        assertThat(tunes).isEqualTo(1);
        assertThat(settings.tuning().kcShift()).isEqualTo(1);
        assertThat(warnings).singleElement().asString().contains(file.toString());
        warnings.clear();
        assertThat(resolve(NEVER).tuning()).isEqualTo(settings.tuning());
        assertThat(warnings).isEmpty();
    }

    @Test
    void aForeignFileIsRetunedWithOneWarning() throws IOException {
        TuningCache.Key other = new TuningCache.Key("Other", 2, 2, "Other JDK", "vector 5x64");
        new TuningCache(directory, other, warnings::add).store(new Tuning(-1, -1, -1, 10));
        Files.copy(new TuningCache(directory, other, warnings::add).file(),
                new TuningCache(directory, MACHINE.key(), warnings::add).file());
        GemmSettings settings = resolve(trials);
        assertThat(tunes).isEqualTo(1);
        assertThat(settings.tuning().kcShift()).isEqualTo(1);
        assertThat(warnings).hasSize(1);
    }

    @Test
    void anUnwritableCacheDirectoryStillGivesTheTuning() throws IOException {
        Path file = Files.writeString(directory.resolve("not-a-directory"), "");
        properties.put(GemmSettings.CACHE_DIRECTORY_PROPERTY, file.toString());
        GemmSettings settings = GemmSettings.resolve(properties::get, MACHINE, trials, warnings::add);
        assertThat(settings.tuning().kcShift()).isEqualTo(1);
        assertThat(warnings).hasSize(1);
    }

    @Test
    void anUnsteadyTuneIsNeitherUsedNorKept() throws IOException {
        int[] calls = {0};
        Supplier<Tuner.Trials> noisy = () -> new Tuner.Trials() {
            @Override
            public void warmUp() {
            }

            @Override
            public double blocked(Blocking blocking) {
                return ++calls[0] % 2 == 0 ? 1.0 : 3.0;
            }

            @Override
            public double serial(int size) {
                return 1.0;
            }

            @Override
            public double parallel(int size) {
                return 2.0;
            }
        };
        GemmSettings settings = resolve(noisy);
        assertThat(settings.tuning()).isEqualTo(Tuning.UNTUNED);
        try (var files = Files.list(directory)) {
            assertThat(files).isEmpty();
        }
        assertThat(warnings).isEmpty();
    }

    @Test
    void aTuneOutOfTimeIsAbandoned() throws IOException {
        Supplier<Tuner.Trials> slow = () -> new Tuner.Trials() {
            @Override
            public void warmUp() {
            }

            @Override
            public double blocked(Blocking blocking) {
                throw new Tuner.OutOfTime();
            }

            @Override
            public double serial(int size) {
                return 1.0;
            }

            @Override
            public double parallel(int size) {
                return 1.0;
            }
        };
        assertThat(resolve(slow).tuning()).isEqualTo(Tuning.UNTUNED);
        try (var files = Files.list(directory)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void autotuneOffUsesTheDerivedBlocksAndWritesNothing() throws IOException {
        properties.put(GemmSettings.AUTOTUNE_PROPERTY, "false");
        GemmSettings settings = resolve(NEVER);
        assertThat(settings.tuning()).isEqualTo(Tuning.UNTUNED);
        assertThat(settings.blocking(5, 64, 4)).isEqualTo(Blocking.derive(5, 64, 4, ZEN5));
        assertThat(settings.serialWork()).isEqualTo(Tuning.UNMEASURED_SERIAL_WORK);
        try (var files = Files.list(directory)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void forcedValuesWinOverTheTuning() {
        properties.put(GemmSettings.KC_PROPERTY, "100");
        properties.put(GemmSettings.NC_PROPERTY, "300");
        GemmSettings settings = resolve(trials);
        assertThat(tunes).isEqualTo(1);
        // mc from the tuning, kc and nc forced (nc rounded up to whole tiles)
        assertThat(settings.blocking(5, 64, 4)).isEqualTo(new Blocking(5, 64, 260, 320, 100));
    }

    @Test
    void allValuesForcedMeansNoTune() {
        properties.put(GemmSettings.KC_PROPERTY, "64");
        properties.put(GemmSettings.MC_PROPERTY, "50");
        properties.put(GemmSettings.NC_PROPERTY, "128");
        properties.put(GemmSettings.SERIAL_WORK_PROPERTY, "1e6");
        GemmSettings settings = resolve(NEVER);
        assertThat(settings.blocking(5, 64, 4)).isEqualTo(new Blocking(5, 64, 50, 128, 64));
        assertThat(settings.serialWork()).isEqualTo(1e6);
    }

    @Test
    void aMalformedPropertyIsAWarningAndIgnored() {
        properties.put(GemmSettings.AUTOTUNE_PROPERTY, "false");
        properties.put(GemmSettings.KC_PROPERTY, "lots");
        properties.put(GemmSettings.MC_PROPERTY, "0");
        properties.put(GemmSettings.NC_PROPERTY, "1e9");
        GemmSettings settings = resolve(NEVER);
        assertThat(settings.blocking(5, 64, 4)).isEqualTo(Blocking.derive(5, 64, 4, ZEN5));
        assertThat(warnings).hasSize(3).allMatch(w -> w.startsWith("ignoring ein4j.cpu.gemm."));
    }

    @Test
    void theCacheDirectoryDefaultsToTheUsersCache() {
        Path configured = GemmSettings.cacheDirectory(name -> null);
        assertThat(configured.getFileName().toString()).isEqualTo("ein4j");
        assertThat(GemmSettings.cacheDirectory(Map.of(GemmSettings.CACHE_DIRECTORY_PROPERTY, "/x/y")::get))
                .isEqualTo(Path.of("/x/y"));
    }

    @Test
    void thisJvmsSettingsAreResolvedOnceAndFitTheKernels() throws InterruptedException {
        GemmSettings[] seen = new GemmSettings[4];
        Thread[] threads = new Thread[seen.length];
        for (int i = 0; i < threads.length; i++) {
            int at = i;
            threads[i] = new Thread(() -> seen[at] = GemmSettings.get());
            threads[i].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        GemmSettings settings = GemmSettings.get();
        assertThat(seen).doesNotContainNull();
        assertThat(GemmSettings.get()).isSameAs(settings);
        FloatKernel kernel = Kernels.load().floats();
        Blocking blocking = settings.blocking(kernel.mr(), kernel.nr(), Float.BYTES);
        assertThat(blocking.mc() % kernel.mr()).isZero();
        assertThat(blocking.nc() % kernel.nr()).isZero();
        assertThat(settings.serialWork()).isPositive();
    }

    /** The one run of the real tuner: its result must be in range and multiply correctly. */
    @Test
    void aRealTuneOnThisMachineGivesUsableSettings() {
        Kernels kernels = Kernels.load();
        Assumptions.assumeTrue(kernels.kind().equals("vector"), "the tuner runs with the vector kernels");
        FloatKernel kernel = kernels.floats();
        CacheSizes caches = CacheSizes.ofMachine();
        GemmSettings.Machine machine = new GemmSettings.Machine(caches, TuningCacheTest.KEY, kernel.mr(),
                kernel.nr(), WorkerPool.shared().parallelism());
        Blocking derived = Blocking.derive(kernel.mr(), kernel.nr(), Float.BYTES, caches);
        properties.put(GemmSettings.CACHE_DIRECTORY_PROPERTY, directory.toString());
        GemmSettings settings = GemmSettings.resolve(properties::get, machine,
                () -> new MeasuredTrials(kernel, derived), warnings::add);
        assertThat(warnings).isEmpty();
        assertThat(settings.serialWork()).isPositive().isFinite();
        // kept only when the timings were steady, which depends on what else this machine is doing
        new TuningCache(directory, TuningCacheTest.KEY, warnings::add).load()
                .ifPresent(kept -> assertThat(kept).isEqualTo(settings.tuning()));
        assertThat(warnings).isEmpty();
        Blocking blocking = settings.blocking(kernel.mr(), kernel.nr(), Float.BYTES);
        BlockingProducts.checkFloat(kernel, blocking, 2 * blocking.mc() + 3, blocking.nc() + 7,
                blocking.kc() + 5, new Random(3));
    }
}
