package dev.ein4j.nn.io;

import static dev.ein4j.nn.io.Rejections.ascii;
import static dev.ein4j.nn.io.Rejections.concat;
import static dev.ein4j.nn.io.Rejections.le16;
import static dev.ein4j.nn.io.Rejections.le32;
import static dev.ein4j.nn.io.Rejections.npy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Corrupt and hostile .npy files: each a TensorFormatException naming the problem, nothing big allocated. */
class HostileNpyTest {

    @TempDir
    Path dir;

    static Stream<Arguments> files() {
        String ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
        return Stream.of(
                arguments("empty file", new byte[0], "truncated: reading the magic and version needs 8 bytes, only 0"),
                arguments("bad magic", concat(ascii("\u0093NUMPX"), new byte[] {1, 0}, le16(0)), "not an .npy file"),
                arguments("a zip instead", concat(ascii("PK\u0003\u0004"), new byte[60]), "not an .npy file"),
                arguments("version 4.0", concat(NpyHeader.MAGIC, new byte[] {4, 0}, le16(0)), "unsupported .npy format version 4.0"),
                arguments("version 1.1", concat(NpyHeader.MAGIC, new byte[] {1, 1}, le16(0)), "version 1.1"),
                arguments("no header length", concat(NpyHeader.MAGIC, new byte[] {1, 0}, new byte[1]), "truncated: reading the header length"),
                arguments("header length past the end", concat(NpyHeader.MAGIC, new byte[] {1, 0}, le16(0xffff), ascii(ok)),
                        "header length 65535 runs past the end"),
                arguments("header length 2^32 - 1", concat(NpyHeader.MAGIC, new byte[] {2, 0}, le32(-1), ascii(ok)),
                        "header length 4294967295 exceeds the limit"),
                arguments("truncated data", npy(ok, new byte[7]), "truncated: shape [2] needs 8 bytes of data, only 7"),
                arguments("bytes after the data", npy(ok, new byte[9]), "1 unexpected bytes after the data"),
                arguments("length past int", npy("<f4", "(1099511627776,)", 0), "length 1099511627776 in shape [1099511627776] is longer"),
                arguments("more elements than an array", npy("<f4", "(100000, 100000)", 0), "holds more than 2147483639 elements"),
                arguments("16 GB claimed in a tiny file", npy("<f8", "(2147483639,)", 8),
                        "truncated: shape [2147483639] needs 17179869112 bytes of data, only 8"),
                arguments("negative length", npy("<f4", "(-1, 2)", 0), "negative length -1"),
                arguments("length past 64 bits", npy("<f4", "(99999999999999999999,)", 0), "is too large"),
                arguments("shape not a tuple", npy("<f4", "(3)", 12), "shape is not a tuple of integers: 3"),
                arguments("shape a list", npy("<f4", "[3]", 12), "shape is not a tuple"),
                arguments("fractional length", npy("<f4", "(2.5,)", 12), "invalid number"),
                arguments("boolean length", npy("<f4", "(True,)", 4), "shape is not a tuple of integers"),
                arguments("unknown dtype", npy("<x4", "(1,)", 4), "unsupported dtype '<x4'"),
                arguments("multi-byte type without byte order", npy("|f4", "(1,)", 4), "unsupported dtype '|f4'"),
                arguments("dtype by name", npy("float32", "(1,)", 4), "unsupported dtype 'float32'"),
                arguments("object array", npy("|O", "(1,)", 8), "object arrays ('|O') are not supported"),
                arguments("structured", npy("{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (1,), }", new byte[4]),
                        "structured dtypes"),
                arguments("fortran_order not a bool", npy("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }", new byte[4]),
                        "fortran_order is not True or False"),
                arguments("missing key", npy("{'descr': '<f4', 'shape': (1,), }", new byte[4]), "exactly the keys"),
                arguments("extra key", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", new byte[4]),
                        "exactly the keys"),
                arguments("duplicate key", npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", new byte[4]),
                        "duplicate key 'descr'"),
                arguments("not a dict", npy("[1, 2]", new byte[0]), "the header is not a dict"),
                arguments("unterminated dict", npy("{'descr': '<f4', 'fortran_order': False", new byte[0]), "expected ',' or '}'"),
                arguments("unterminated string", npy("{'descr: 1}", new byte[0]), "unterminated string"),
                arguments("escape in a string", npy("{'de\\x73cr': '<f4'}", new byte[0]), "escapes"),
                arguments("garbage after the dict", npy(ok + " x", new byte[8]), "unexpected text after the header dict"),
                arguments("code in the header", npy("__import__('os')", new byte[0]), "unexpected character '_'"),
                arguments("nested too deep", npy("(".repeat(5000), new byte[0]), "nested deeper than 16 levels"),
                arguments("bool byte 2", concat(npy("|b1", "(3,)", 0), new byte[] {1, 2, 0}), "bool element 1 is the byte 2"),
                arguments("int64 past int32", concat(npy("<i8", "(1,)", 0), Rejections.le64(1L << 40)), "does not fit in int32"),
                arguments("version 3 header not UTF-8", concat(NpyHeader.MAGIC, new byte[] {3, 0}, le32(2), new byte[] {'{', (byte) 0xff}),
                        "not valid UTF-8"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void fileIsRejected(String name, byte[] bytes, String message) {
        Rejections.assertRejected(dir, name, bytes, Npy::read, message);
    }

    /** The same, from a stream; a stream may go on after the array, so trailing bytes are no error there. */
    static Stream<Arguments> streams() {
        return files().filter(a -> !a.get()[0].equals("bytes after the data"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void streamIsRejected(String name, byte[] bytes, String message) {
        long before = Rejections.allocated();
        assertThatThrownBy(() -> Npy.read(new ByteArrayInputStream(bytes))).as(name)
                .isInstanceOf(TensorFormatException.class).hasMessageStartingWith("stream: ");
        if (before >= 0) {
            assertThat(Rejections.allocated() - before).as(name).isLessThan(Rejections.ALLOCATION_LIMIT);
        }
    }

    @Test
    void aStreamClaimingGigabytesCostsOnlyWhatItHolds() {
        // no length to check the claim against: the array grows with the data actually read
        InputStream in = new ByteArrayInputStream(npy("<f8", "(2147483639,)", 1000));
        long before = Rejections.allocated();
        assertThatThrownBy(() -> Npy.read(in)).isInstanceOf(TensorFormatException.class)
                .hasMessage("stream: truncated: the data needs 17179869112 bytes, only 1000 are there");
        if (before >= 0) {
            assertThat(Rejections.allocated() - before).isLessThan(Rejections.ALLOCATION_LIMIT);
        }
    }
}
