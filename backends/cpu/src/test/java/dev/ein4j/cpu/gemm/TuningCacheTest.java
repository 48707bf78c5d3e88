package dev.ein4j.cpu.gemm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tuning file: kept and read back; anything wrong with it is one warning and no tuning. */
class TuningCacheTest {

    static final TuningCache.Key KEY = new TuningCache.Key("Some CPU @ 3.0GHz", 16, 8, "Vendor 17.0.1+12",
            "vector 5x64");
    static final Tuning TUNING = new Tuning(1, -1, 0, 3.5e6);

    @TempDir
    Path directory;

    private final List<String> warnings = new ArrayList<>();

    private TuningCache cache(TuningCache.Key key) {
        return new TuningCache(directory, key, warnings::add);
    }

    @Test
    void keepsATuningAndReadsItBack() {
        cache(KEY).store(TUNING);
        assertThat(cache(KEY).load()).contains(TUNING);
        assertThat(warnings).isEmpty();
        assertThat(directory.toFile().list()).containsExactly(cache(KEY).file().getFileName().toString());
    }

    @Test
    void noFileIsNoTuningAndNoWarning() {
        assertThat(cache(KEY).load()).isEmpty();
        assertThat(warnings).isEmpty();
    }

    @Test
    void eachKeyHasItsOwnFile() {
        TuningCache.Key otherJdk = new TuningCache.Key(KEY.cpuModel(), 16, 8, "Vendor 25.0.3+9", "vector 5x64");
        cache(KEY).store(TUNING);
        assertThat(cache(otherJdk).file()).isNotEqualTo(cache(KEY).file());
        assertThat(cache(otherJdk).load()).isEmpty();
        assertThat(warnings).isEmpty();
    }

    @Test
    void aForeignFileIsIgnoredWithOneWarning() throws IOException {
        TuningCache.Key otherCpu = new TuningCache.Key("Other CPU", 16, 8, KEY.jdk(), KEY.kernels());
        cache(otherCpu).store(TUNING);
        // the other machine's file, copied to where this machine looks
        Files.copy(cache(otherCpu).file(), cache(KEY).file());
        assertThat(cache(KEY).load()).isEmpty();
        assertThat(warnings).singleElement().asString().contains(cache(KEY).file().toString())
                .contains("cpuModel 'Other CPU'").contains("tuning again");
    }

    @Test
    void aCorruptFileIsIgnoredWithOneWarning() throws IOException {
        Files.write(cache(KEY).file(), new byte[] {(byte) 0xff, 0, 0x13, (byte) 0xc3, 0x28, 10, 0});
        assertThat(cache(KEY).load()).isEmpty();
        assertThat(warnings).hasSize(1);
    }

    @Test
    void malformedOrOutOfRangeValuesAreIgnoredWithOneWarning() throws IOException {
        cache(KEY).store(TUNING);
        Path file = cache(KEY).file();
        String good = Files.readString(file);
        for (String[] bad : new String[][] {{"kcShift=1", "kcShift=one"}, {"kcShift=1", "kcShift=7"},
            {"serialWork=3500000.0", "serialWork=NaN"}, {"serialWork=3500000.0", "serialWork=-1"},
            {"ncShift=-1", "ncShift ="}, {"format=1", "format=0"}}) {
            assertThat(good).contains(bad[0]);
            Files.writeString(file, good.replace(bad[0], bad[1]));
            warnings.clear();
            assertThat(cache(KEY).load()).as(bad[1]).isEmpty();
            assertThat(warnings).as(bad[1]).hasSize(1);
        }
        Files.writeString(file, good.replaceAll("(?m)^mcShift=.*$", ""));
        warnings.clear();
        assertThat(cache(KEY).load()).isEmpty();
        assertThat(warnings).singleElement().asString().contains("mcShift is missing");
    }

    @Test
    void anUnreadableFileIsIgnoredWithOneWarning() throws IOException {
        Files.createDirectories(cache(KEY).file());
        assertThat(cache(KEY).load()).isEmpty();
        assertThat(warnings).singleElement().asString().contains("cannot be read");
    }

    @Test
    void anUnwritableDirectoryIsAWarningNotAnError() throws IOException {
        Path notADirectory = Files.writeString(directory.resolve("plain-file"), "x");
        TuningCache cache = new TuningCache(notADirectory.resolve("ein4j"), KEY, warnings::add);
        cache.store(TUNING);
        assertThat(warnings).singleElement().asString().contains("for this run only");
        assertThat(cache.load()).isEmpty();
    }

    @Test
    void aStoreReplacesAnIgnoredFile() throws IOException {
        Files.writeString(cache(KEY).file(), "garbage");
        assertThat(cache(KEY).load()).isEmpty();
        cache(KEY).store(TUNING);
        assertThat(cache(KEY).load()).contains(TUNING);
        assertThat(warnings).hasSize(1);
    }
}
