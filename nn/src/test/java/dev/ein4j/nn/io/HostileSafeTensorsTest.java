package dev.ein4j.nn.io;

import static dev.ein4j.nn.io.Rejections.concat;
import static dev.ein4j.nn.io.Rejections.le64;
import static dev.ein4j.nn.io.Rejections.safetensors;
import static dev.ein4j.nn.io.Rejections.utf8;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Corrupt and hostile safetensors files: each a TensorFormatException naming the problem, nothing big allocated. */
class HostileSafeTensorsTest {

    @TempDir
    Path dir;

    private static String tensor(String name, String dtype, String shape, long begin, long end) {
        return "\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape + ",\"data_offsets\":[" + begin + "," + end + "]}";
    }

    private static byte[] one(String dtype, String shape, long begin, long end, int dataBytes) {
        return safetensors("{" + tensor("x", dtype, shape, begin, end) + "}", new byte[dataBytes]);
    }

    static Stream<Arguments> files() {
        String a = tensor("a", "F32", "[2]", 0, 8);
        return Stream.of(
                arguments("empty file", new byte[0], "0 bytes, fewer than the 8 of the header length"),
                arguments("seven bytes", new byte[7], "fewer than the 8"),
                arguments("header length 2^63", concat(le64(Long.MIN_VALUE), utf8("{}")),
                        "header length 9223372036854775808 exceeds the limit of 100000000 bytes"),
                arguments("header length 2^64 - 1", concat(le64(-1), utf8("{}")), "header length 18446744073709551615 exceeds"),
                arguments("header length 200 MB", concat(le64(200_000_000), utf8("{}")), "exceeds the limit"),
                arguments("header length past the end", concat(le64(1000), utf8("{}")), "header length 1000 runs past the end of the file (10 bytes)"),
                arguments("empty header", concat(le64(0)), "expected '{' at the start of the header"),
                arguments("not JSON", safetensors("hello", new byte[0]), "expected '{'"),
                arguments("top-level array", safetensors("[]", new byte[0]), "expected '{'"),
                arguments("unterminated object", safetensors("{\"a\":{\"dtype\":\"F32\"", new byte[0]), "malformed JSON header"),
                arguments("trailing garbage", safetensors("{}x", new byte[0]), "unexpected text after the header object"),
                arguments("not UTF-8", concat(le64(4), new byte[] {'{', '"', (byte) 0xc3, '}'}), "the header is not valid UTF-8"),
                arguments("duplicate names", safetensors("{" + a + "," + a + "}", new byte[8]), "duplicate key \"a\""),
                arguments("unknown dtype", one("F8_E4M3", "[2]", 0, 2, 2), "unsupported dtype 'F8_E4M3'"),
                arguments("lowercase dtype", one("f32", "[2]", 0, 8, 8), "unsupported dtype 'f32'"),
                arguments("dtype not a string", safetensors("{\"x\":{\"dtype\":4,\"shape\":[],\"data_offsets\":[0,4]}}", new byte[4]),
                        "dtype must be a string"),
                arguments("offsets past the buffer", one("F32", "[250]", 0, 1000, 16), "lie outside the data buffer of 16 bytes"),
                arguments("offsets at 2^63 - 1", one("U8", "[1]", Long.MAX_VALUE - 1, Long.MAX_VALUE, 4), "lie outside"),
                arguments("overlapping offsets", safetensors("{" + tensor("a", "F32", "[2]", 0, 8) + "," + tensor("b", "F32", "[2]", 4, 12)
                        + "}", new byte[12]), "the data of tensors 'a' [0, 8] and 'b' [4, 12] overlap"),
                arguments("the same offsets twice", safetensors("{" + a + "," + tensor("b", "F32", "[2]", 0, 8) + "}", new byte[8]),
                        "overlap"),
                arguments("a gap", safetensors("{" + tensor("a", "F32", "[1]", 0, 4) + "," + tensor("b", "F32", "[1]", 8, 12)
                        + "}", new byte[12]), "bytes [4, 8) of the data buffer belong to no tensor"),
                arguments("buffer not covered", one("F32", "[1]", 0, 4, 8), "the tensors cover 4 bytes but the data buffer holds 8"),
                arguments("data but no tensors", safetensors("{}", new byte[3]), "cover 0 bytes but the data buffer holds 3"),
                arguments("shape and offsets disagree", one("F32", "[3]", 0, 8, 8), "shape [3] of F32 needs 12 bytes but data_offsets [0, 8] span 8"),
                arguments("begin after end", one("F32", "[0]", 8, 4, 8), "end before they begin"),
                arguments("three offsets", safetensors("{\"x\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4,8]}}", new byte[8]),
                        "data_offsets must be [begin, end]"),
                arguments("length past int", one("U8", "[4294967296]", 0, 4, 4), "length 4294967296 in shape [4294967296] is longer"),
                arguments("more elements than an array", one("F32", "[65536,65536]", 0, 8, 8), "holds more than 2147483639 elements"),
                arguments("negative length", one("F32", "[-1]", 0, 4, 4), "must hold non-negative integers, found -1"),
                arguments("fractional length", one("F32", "[1.5]", 0, 4, 4), "only integers are allowed"),
                arguments("exponent", one("F32", "[1e3]", 0, 4, 4), "only integers are allowed"),
                arguments("number past 64 bits", one("F32", "[18446744073709551616]", 0, 4, 4), "the number 18446744073709551616 is too large"),
                arguments("leading zero", one("F32", "[01]", 0, 4, 4), "leading zeros"),
                arguments("shape not an array", safetensors("{\"x\":{\"dtype\":\"F32\",\"shape\":\"2\",\"data_offsets\":[0,8]}}", new byte[8]),
                        "shape must be an array of integers"),
                arguments("no shape", safetensors("{\"x\":{\"dtype\":\"F32\",\"data_offsets\":[0,4]}}", new byte[4]), "tensor 'x' has no shape"),
                arguments("unknown field", safetensors("{\"x\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4],\"extra\":1}}",
                        new byte[4]), "unknown field \"extra\""),
                arguments("tensor not an object", safetensors("{\"x\":[1,2]}", new byte[0]), "tensor 'x' must be an object, found an array"),
                arguments("metadata not an object", safetensors("{\"__metadata__\":\"v1\"}", new byte[0]), "__metadata__ must be an object"),
                arguments("metadata not strings", safetensors("{\"__metadata__\":{\"epoch\":3}}", new byte[0]),
                        "__metadata__ value of \"epoch\" must be a string, found 3"),
                arguments("unpaired surrogate", safetensors("{\"\\ud800\":{}}", new byte[0]), "unpaired surrogate"),
                arguments("control character", safetensors("{\"a\nb\":{}}", new byte[0]), "unescaped control character U+000A"),
                arguments("bad escape", safetensors("{\"a\\qb\":{}}", new byte[0]), "invalid escape \\q"),
                arguments("nested too deep", safetensors("{\"a\":" + "[".repeat(100_000), new byte[0]), "nested deeper than 32 levels"),
                arguments("bool byte 2", concat(safetensors("{" + tensor("x", "BOOL", "[2]", 0, 2) + "}", new byte[0]),
                        new byte[] {0, 2}), "bool element 1 is the byte 2"),
                arguments("int64 past int32", concat(safetensors("{" + tensor("x", "I64", "[1]", 0, 8) + "}", new byte[0]),
                        le64(-(1L << 40))), "element 0 (-1099511627776) does not fit in int32"),
                arguments("uint64 past 2^63", concat(safetensors("{" + tensor("x", "U64", "[1]", 0, 8) + "}", new byte[0]),
                        le64(-1)), "element 0 (18446744073709551615) does not fit in int32"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void fileIsRejected(String name, byte[] bytes, String message) {
        Rejections.assertRejected(dir, name, bytes, SafeTensors::read, message);
    }
}
