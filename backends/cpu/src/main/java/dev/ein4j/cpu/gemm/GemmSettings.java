package dev.ein4j.cpu.gemm;

import dev.ein4j.cpu.WorkerPool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The blocks and the serial threshold every multiply of this JVM uses, resolved once, on the first
 * multiply: blocks derived from the cache sizes ({@link Blocking#derive}), corrected by the machine's
 * {@link Tuning}, which is read from the {@link TuningCache} or, the first time on a machine, measured
 * by {@link Tuner} (about a second, most of it the JIT compiling the kernels, which the first multiplies
 * would wait for anyway) and kept there, unless its timings were unsteady (another program was busy on
 * the cores): then it holds for this JVM only, and the next one tunes again.
 *
 * <p>System properties:
 * <ul>
 * <li>{@value #AUTOTUNE_PROPERTY}{@code =false}: no autotune and no cache file; the derived blocks and
 * {@link Tuning#UNMEASURED_SERIAL_WORK} are used (the build's test JVMs set it; so do the plain-Java
 * kernels, on which a tune would take seconds);</li>
 * <li>{@value #KC_PROPERTY}, {@value #MC_PROPERTY}, {@value #NC_PROPERTY} (elements, for both precisions)
 * and {@value #SERIAL_WORK_PROPERTY} (multiply-adds): force that value over the tuned or derived one;
 * with all four set nothing is tuned;</li>
 * <li>{@value #CACHE_DIRECTORY_PROPERTY}: the directory of the cache files, instead of
 * {@code $XDG_CACHE_HOME/ein4j} (or {@code ~/.cache/ein4j} when that variable is unset or relative).</li>
 * </ul>
 */
final class GemmSettings {

    /** Set to {@code false}, switches the autotune off. */
    static final String AUTOTUNE_PROPERTY = "ein4j.cpu.gemm.autotune";
    /** The directory of the tuning files. */
    static final String CACHE_DIRECTORY_PROPERTY = "ein4j.cpu.gemm.cacheDirectory";
    /** Forces kc. */
    static final String KC_PROPERTY = "ein4j.cpu.gemm.kc";
    /** Forces mc. */
    static final String MC_PROPERTY = "ein4j.cpu.gemm.mc";
    /** Forces nc. */
    static final String NC_PROPERTY = "ein4j.cpu.gemm.nc";
    /** Forces the serial threshold. */
    static final String SERIAL_WORK_PROPERTY = "ein4j.cpu.gemm.serialWork";
    /** Timed runs per autotune candidate. */
    static final int REPEATS = 5;

    private static final System.Logger LOGGER = System.getLogger(GemmSettings.class.getPackageName());

    /** The settings once resolved. */
    private static volatile GemmSettings resolved;
    /** Whether a thread has begun resolving them; it alone tunes. */
    private static final AtomicBoolean RESOLVING = new AtomicBoolean();

    /**
     * What runs while the first caller tunes: derived blocks, forced values, no tune. Other threads use
     * these rather than wait, so that no worker of the pool the tune's trials need is ever blocked.
     */
    private static final class Provisional {
        static final GemmSettings SETTINGS = ofMachine(false);
    }

    /**
     * What the settings depend on.
     *
     * @param caches the cache sizes
     * @param key the tuning file's key
     * @param mr rows of the float micro-kernel's tile
     * @param nr columns of the float micro-kernel's tile
     * @param threads the workers a split multiply runs on
     */
    record Machine(CacheSizes caches, TuningCache.Key key, int mr, int nr, int threads) {
    }

    private final CacheSizes caches;
    private final Tuning tuning;
    private final int kcForced;
    private final int mcForced;
    private final int ncForced;
    private final double serialWork;

    private GemmSettings(CacheSizes caches, Tuning tuning, int[] forced, double serialWork) {
        this.caches = caches;
        this.tuning = tuning;
        this.kcForced = forced[0];
        this.mcForced = forced[1];
        this.ncForced = forced[2];
        this.serialWork = serialWork;
    }

    /**
     * @return this JVM's settings, resolved (and, once per machine, tuned) on the first call; calls from
     *     other threads meanwhile get the provisional ones
     */
    static GemmSettings get() {
        GemmSettings settings = resolved;
        if (settings != null) {
            return settings;
        }
        if (!RESOLVING.compareAndSet(false, true)) {
            return Provisional.SETTINGS;
        }
        try {
            settings = ofMachine(true);
        } catch (RuntimeException | LinkageError e) {
            LOGGER.log(System.Logger.Level.WARNING, "GEMM autotune failed; the derived blocks are used", e);
            settings = Provisional.SETTINGS;
        }
        resolved = settings;
        return settings;
    }

    /**
     * @param mr the kernel's rows
     * @param nr the kernel's columns
     * @param elementBytes 4 or 8
     * @return the blocks for that kernel: derived, scaled by the tuning, forced values replacing them
     */
    Blocking blocking(int mr, int nr, int elementBytes) {
        return tuning.apply(Blocking.derive(mr, nr, elementBytes, caches)).forced(kcForced, ncForced, mcForced);
    }

    /** @return the multiply-adds up to which a call runs on the calling thread alone */
    double serialWork() {
        return serialWork;
    }

    /** @return the tuning in use (tuned, cached or {@link Tuning#UNTUNED}) */
    Tuning tuning() {
        return tuning;
    }

    private static GemmSettings ofMachine(boolean autotune) {
        Kernels kernels = Kernels.load();
        FloatKernel floats = kernels.floats();
        CacheSizes caches = CacheSizes.ofMachine();
        int threads = WorkerPool.shared().parallelism();
        TuningCache.Key key = new TuningCache.Key(cpuModel(), Runtime.getRuntime().availableProcessors(),
                threads, System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"),
                kernels.kind() + " " + floats.mr() + "x" + floats.nr());
        Machine machine = new Machine(caches, key, floats.mr(), floats.nr(), threads);
        Function<String, String> properties = System::getProperty;
        if (!autotune || !kernels.kind().equals("vector")) {
            // provisional; or the plain-Java kernels, ~30x slower: a tune would take seconds, for a fallback
            properties = name -> name.equals(AUTOTUNE_PROPERTY) ? "false" : System.getProperty(name);
        }
        return resolve(properties, machine,
                () -> new MeasuredTrials(floats, Blocking.derive(floats.mr(), floats.nr(), Float.BYTES, caches)),
                message -> LOGGER.log(System.Logger.Level.WARNING, message));
    }

    /**
     * @param properties the system properties (a map in tests)
     * @param machine what the machine is
     * @param trials the autotune's clock, made only when a tune runs
     * @param warnings told of each problem with a property, the cache file or its directory
     * @return the settings: forced values, else the cached tuning, else a fresh one (then cached)
     */
    static GemmSettings resolve(Function<String, String> properties, Machine machine,
            Supplier<Tuner.Trials> trials, Consumer<String> warnings) {
        int[] forced = {block(properties, KC_PROPERTY, warnings), block(properties, MC_PROPERTY, warnings),
            block(properties, NC_PROPERTY, warnings)};
        double serialForced = positive(properties, SERIAL_WORK_PROPERTY, 1e18, warnings);
        boolean allForced = forced[0] > 0 && forced[1] > 0 && forced[2] > 0 && serialForced > 0;
        Tuning tuning = Tuning.UNTUNED;
        if (!"false".equalsIgnoreCase(String.valueOf(properties.apply(AUTOTUNE_PROPERTY)).trim()) && !allForced) {
            TuningCache cache = new TuningCache(cacheDirectory(properties), machine.key(), warnings);
            tuning = cache.load().orElse(null);
            if (tuning == null) {
                Blocking derived = Blocking.derive(machine.mr(), machine.nr(), Float.BYTES, machine.caches());
                tuning = tune(cache, derived, machine, trials);
            }
        }
        return new GemmSettings(machine.caches(), tuning, forced,
                serialForced > 0 ? serialForced : tuning.serialWork());
    }

    /**
     * Runs the tuner and keeps its result if its timings were steady.
     *
     * @return the tuning found, or {@link Tuning#UNTUNED} when the timings were unsteady or ran out of
     *     time: other programs took turns with the trials, so their choice would be noise
     */
    private static Tuning tune(TuningCache cache, Blocking derived, Machine machine,
            Supplier<Tuner.Trials> trials) {
        long start = System.nanoTime();
        Tuner tuner = new Tuner(trials.get(), REPEATS);
        Tuning tuning;
        try {
            tuning = tuner.tune(derived, machine.threads());
        } catch (Tuner.OutOfTime e) {
            LOGGER.log(System.Logger.Level.DEBUG, () -> "GEMM autotune out of time; derived blocks used");
            return Tuning.UNTUNED;
        }
        Tuning found = tuning;
        LOGGER.log(System.Logger.Level.DEBUG, () -> "tuned the GEMM in " + (System.nanoTime() - start) / 1_000_000
                + " ms, spread " + tuner.spread() + ": " + found + ", " + machine + ", derived " + derived);
        if (!tuner.steady()) {
            return Tuning.UNTUNED;
        }
        cache.store(tuning);
        return tuning;
    }

    /** @return the cache directory the properties and the environment name */
    static Path cacheDirectory(Function<String, String> properties) {
        String configured = properties.apply(CACHE_DIRECTORY_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured.trim());
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "ein4j");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "ein4j");
    }

    /** @return the property's value, at least 1 and at most {@code max}; 0 when unset (or, warned, not one) */
    private static double positive(Function<String, String> properties, String name, double max,
            Consumer<String> warnings) {
        String value = properties.apply(name);
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            double parsed = Double.parseDouble(value.trim());
            if (parsed >= 1 && parsed <= max) {
                return Math.floor(parsed);
            }
        } catch (NumberFormatException e) {
            // warned below
        }
        warnings.accept("ignoring " + name + "=" + value + ": not a number from 1 to " + (long) max);
        return 0;
    }

    private static int block(Function<String, String> properties, String name, Consumer<String> warnings) {
        return (int) positive(properties, name, Blocking.MAX_BLOCK, warnings);
    }

    /** @return /proc/cpuinfo's first "model name", or the OS architecture where there is none */
    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equals("model name")) {
                    return line.substring(colon + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc hidden: the architecture is the best key there is
        }
        return System.getProperty("os.arch");
    }
}
