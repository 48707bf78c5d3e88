package dev.ein4j.nn.io;

import static dev.ein4j.nn.io.IdxTest.gzip;
import static dev.ein4j.nn.io.IdxTest.idx;
import static dev.ein4j.nn.io.Rejections.concat;
import static dev.ein4j.nn.io.Rejections.npy;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Corrupt and hostile IDX files and .npz archives: each a TensorFormatException naming the problem. */
class HostileIdxNpzTest {

    @TempDir
    Path dir;

    static Stream<Arguments> idxFiles() {
        return Stream.of(
                arguments("empty file", new byte[0], "truncated: reading the magic needs 4 bytes, only 0"),
                arguments("not IDX", "hello world!".getBytes(StandardCharsets.US_ASCII), "(not an IDX file)"),
                arguments("floats", concat(new byte[] {0, 0, 0x0d, 3}, new byte[12]), "found magic 0x00000D03 (an element type other"),
                arguments("rank 2", idx(2, new int[] {2, 2}, new byte[4]), "found magic 0x00000802 (unsigned bytes of another rank)"),
                arguments("truncated dimensions", Arrays.copyOf(idx(3, new int[] {1, 2, 2}, new byte[4]), 10),
                        "truncated: reading the dimensions needs 12 bytes, only 6"),
                arguments("length 2^32 - 1", idx(3, new int[] {-1, 28, 28}, new byte[0]), "length 4294967295 is longer than a dimension"),
                arguments("exabytes claimed", idx(3, new int[] {Integer.MAX_VALUE, 65536, 65536}, new byte[10]),
                        "truncated: the header claims 9223372032559808512 bytes of data, the file holds 10"),
                arguments("more than 2^63 bytes claimed", idx(3, new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE},
                        new byte[10]), "truncated: the header claims more than 2^63 bytes of data, the file holds 10"),
                arguments("truncated data", idx(3, new int[] {2, 2, 2}, new byte[7]), "truncated: the header claims 8 bytes of data, the file holds 7"),
                arguments("bytes after the data", idx(1, new int[] {2}, new byte[3]), "unexpected bytes after the data"),
                arguments("gzip: gigabytes claimed", gzip(idx(3, new int[] {60000, 28000, 28000}, new byte[10])),
                        "holds more than 2147483639 elements"),
                arguments("gzip: truncated data", gzip(idx(3, new int[] {100, 28, 28}, new byte[1000])),
                        "truncated: the data needs 78400 bytes, only 1000"),
                arguments("gzip: corrupt", concat(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 0}, new byte[] {(byte) 0xff, 1, 2, 3}),
                        "corrupt compressed data"),
                arguments("gzip: cut short", Arrays.copyOf(gzip(idx(3, new int[] {100, 1, 1}, new byte[100])), 20), "truncated"),
                arguments("gzip: header only", new byte[] {0x1f, (byte) 0x8b}, "truncated"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("idxFiles")
    void idxIsRejected(String name, byte[] bytes, String message) {
        boolean labels = bytes.length >= 4 && bytes[3] == 1;
        Rejections.assertRejected(dir, name, bytes, labels ? Idx::readLabels : Idx::readImages, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("idxFiles")
    void idxStreamIsRejected(String name, byte[] bytes, String message) {
        if (name.equals("bytes after the data")) {
            return; // a stream may go on after the data
        }
        boolean labels = bytes.length >= 4 && bytes[3] == 1;
        assertThatThrownBy(() -> {
            if (labels) {
                Idx.readLabels(new ByteArrayInputStream(bytes));
            } else {
                Idx.readImages(new ByteArrayInputStream(bytes));
            }
        }).as(name).isInstanceOf(TensorFormatException.class).hasMessageStartingWith("stream: ");
    }

    /** @return a zip of these entries (name, bytes), stored or deflated */
    static byte[] zip(boolean deflate, Object... entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (int i = 0; i < entries.length; i += 2) {
                byte[] data = (byte[]) entries[i + 1];
                ZipEntry entry = new ZipEntry((String) entries[i]);
                if (!deflate) {
                    CRC32 crc = new CRC32();
                    crc.update(data);
                    entry.setMethod(ZipEntry.STORED);
                    entry.setSize(data.length);
                    entry.setCrc(crc.getValue());
                }
                zip.putNextEntry(entry);
                zip.write(data);
                zip.closeEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** @return the bytes with every occurrence of one ASCII string replaced by another of the same length */
    static byte[] replace(byte[] bytes, String from, String to) {
        byte[] out = bytes.clone();
        byte[] f = from.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + f.length <= out.length; i++) {
            if (Arrays.equals(out, i, i + f.length, f, 0, f.length)) {
                System.arraycopy(to.getBytes(StandardCharsets.US_ASCII), 0, out, i, f.length);
            }
        }
        return out;
    }

    static Stream<Arguments> npzFiles() {
        byte[] good = npy("<f4", "(2,)", 8);
        byte[] huge = npy("<f8", "(2147483639,)", 16);
        return Stream.of(
                arguments("not a zip", "not a zip at all".getBytes(StandardCharsets.US_ASCII), "not a valid zip archive"),
                arguments("empty file", new byte[0], "not a valid zip archive"),
                arguments("an entry not .npy", zip(false, "a.npy", good, "readme.txt", new byte[3]), "entry 'readme.txt': not an .npy array"),
                arguments("a directory", zip(false, "dir/", new byte[0]), "entry 'dir/': not an .npy array"),
                arguments("two entries of one name", replace(zip(false, "a.npy", good, "b.npy", good), "b.npy", "a.npy"),
                        "a second array named 'a'"),
                arguments("an entry not .npy data", zip(true, "a.npy", new byte[100]), "entry 'a.npy': not an .npy file"),
                arguments("gigabytes claimed, stored", zip(false, "a.npy", huge), "entry 'a.npy': truncated"),
                arguments("gigabytes claimed, deflated", zip(true, "a.npy", huge), "entry 'a.npy': truncated"),
                arguments("bytes after the array", zip(true, "a.npy", concat(good, new byte[1])), "unexpected bytes after the data"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("npzFiles")
    void npzIsRejected(String name, byte[] bytes, String message) {
        Rejections.assertRejected(dir, name, bytes, Npz::read, message);
    }

    @Test
    void corruptDeflateDataIsAFormatError() {
        byte[] archive = zip(true, "a.npy", concat(npy("<f4", "(64,)", 0),
                "0123456789abcdef".repeat(16).getBytes(StandardCharsets.US_ASCII)));
        // the compressed data starts after the 30-byte local header and the name; scramble it
        for (int i = 30 + 5 + 4; i < 30 + 5 + 40; i++) {
            archive[i] ^= 0x5a;
        }
        Rejections.assertRejected(dir, "scrambled", archive, Npz::read, "entry 'a.npy'");
    }
}
