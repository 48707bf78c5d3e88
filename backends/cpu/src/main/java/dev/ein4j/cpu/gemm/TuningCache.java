package dev.ein4j.cpu.gemm;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * The autotune's result kept between runs: one properties file per machine key in a directory (by
 * default {@code $XDG_CACHE_HOME/ein4j}, else {@code ~/.cache/ein4j}), named after a hash of the key and
 * holding the key itself, so that a file copied from another machine or JDK is recognised. A file that
 * is unreadable, malformed, of another format or of another key is ignored with one warning, and the
 * caller tunes again (and overwrites it); a directory that cannot be written is a warning, not an error:
 * the tuning then holds for this JVM only. Writes go to a temporary file moved into place, so that a
 * JVM reading concurrently sees the old file or the new one.
 */
final class TuningCache {

    /** The version of the file's layout; a file of another is ignored. */
    static final String FORMAT = "1";

    /**
     * What a tuning depends on.
     *
     * @param cpuModel /proc/cpuinfo's "model name" (or the OS architecture where there is none)
     * @param cores the processors the JVM sees
     * @param threads the workers a split multiply runs on
     * @param jdk the Java runtime's vendor and version
     * @param kernels the micro-kernels' kind and tile, e.g. "vector 5x64"
     */
    record Key(String cpuModel, int cores, int threads, String jdk, String kernels) {

        /** @return the hash the file is named after, 16 hexadecimal digits */
        String digest() {
            long hash = 1125899906842597L;
            for (char ch : toString().toCharArray()) {
                hash = 31 * hash + ch;
            }
            return String.format(Locale.ROOT, "%016x", hash);
        }
    }

    private final Path directory;
    private final Key key;
    private final Consumer<String> warnings;

    /**
     * @param directory where the files are
     * @param key this machine's key
     * @param warnings told of each problem with the file or the directory, once, in a sentence
     */
    TuningCache(Path directory, Key key, Consumer<String> warnings) {
        this.directory = directory;
        this.key = key;
        this.warnings = warnings;
    }

    /** @return the file this key's tuning is kept in */
    Path file() {
        return directory.resolve("gemm-" + key.digest() + ".properties");
    }

    /** @return the kept tuning, or empty when there is none or it cannot be used (with a warning) */
    Optional<Tuning> load() {
        Path file = file();
        if (!Files.exists(file)) {
            // none yet, or the directory cannot be looked into: store() will say so if that is why
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            warn(file, "it cannot be read (" + e + ")");
            return Optional.empty();
        }
        String problem = foreignOrMalformed(properties);
        if (problem != null) {
            warn(file, problem);
            return Optional.empty();
        }
        try {
            return Optional.of(new Tuning(intValue(properties, "kcShift"), intValue(properties, "ncShift"),
                    intValue(properties, "mcShift"), doubleValue(properties, "serialWork")));
        } catch (RuntimeException e) {
            warn(file, "its values are malformed (" + e.getMessage() + ")");
            return Optional.empty();
        }
    }

    /** Keeps {@code tuning} for this key, replacing any file there; a failure is a warning. */
    void store(Tuning tuning) {
        Properties properties = new Properties();
        properties.setProperty("format", FORMAT);
        properties.setProperty("cpuModel", key.cpuModel());
        properties.setProperty("cores", String.valueOf(key.cores()));
        properties.setProperty("threads", String.valueOf(key.threads()));
        properties.setProperty("jdk", key.jdk());
        properties.setProperty("kernels", key.kernels());
        properties.setProperty("kcShift", String.valueOf(tuning.kcShift()));
        properties.setProperty("ncShift", String.valueOf(tuning.ncShift()));
        properties.setProperty("mcShift", String.valueOf(tuning.mcShift()));
        properties.setProperty("serialWork", String.valueOf(tuning.serialWork()));
        Path file = file();
        Path temporary = null;
        try {
            Files.createDirectories(directory);
            temporary = Files.createTempFile(directory, "gemm-", ".tmp");
            try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
                properties.store(writer, "ein4j cpu GEMM autotune; delete to tune again");
            }
            move(temporary, file);
            temporary = null;
        } catch (IOException | RuntimeException e) {
            warnings.accept("could not keep the GEMM tuning in " + file + " (" + e
                    + "); it holds for this run only");
        } finally {
            deleteQuietly(temporary);
        }
    }

    /** @return why the file is not this key's in this format, or null when it is */
    private String foreignOrMalformed(Properties properties) {
        if (!FORMAT.equals(properties.getProperty("format"))) {
            return "it is not of format " + FORMAT;
        }
        String[][] expected = {{"cpuModel", key.cpuModel()}, {"cores", String.valueOf(key.cores())},
            {"threads", String.valueOf(key.threads())}, {"jdk", key.jdk()}, {"kernels", key.kernels()}};
        for (String[] field : expected) {
            String found = properties.getProperty(field[0]);
            if (!field[1].equals(found)) {
                return "it was tuned for " + field[0] + " '" + found + "', this machine has '" + field[1] + "'";
            }
        }
        return null;
    }

    private static int intValue(Properties properties, String name) {
        String value = properties.getProperty(name);
        if (value == null) {
            throw new IllegalArgumentException(name + " is missing");
        }
        return Integer.parseInt(value.trim());
    }

    private static double doubleValue(Properties properties, String name) {
        String value = properties.getProperty(name);
        if (value == null) {
            throw new IllegalArgumentException(name + " is missing");
        }
        return Double.parseDouble(value.trim());
    }

    private void warn(Path file, String problem) {
        warnings.accept("ignoring the GEMM tuning file " + file + ": " + problem + "; tuning again");
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // a stray temporary file in a cache directory is harmless
            }
        }
    }
}
