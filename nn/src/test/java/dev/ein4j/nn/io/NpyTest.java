package dev.ein4j.nn.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** .npy files written by numpy read back exactly; .npy files written here are numpy's bytes. */
class NpyTest {

    @TempDir
    Path dir;

    static List<String> numpyFiles() {
        return Fixtures.keys("npy/").stream().filter(k -> !k.contains("#")).toList();
    }

    /** The C-order little-endian files of the four tensor types: what np.save writes for our tensors. */
    static List<String> twins() {
        return numpyFiles().stream().filter(k -> k.matches("npy/(f4|f8|i4|b1)_.*")).toList();
    }

    @ParameterizedTest
    @MethodSource("numpyFiles")
    void readsWhatNumpyWrote(String file) {
        Fixtures.assertMatches(Npy.read(Fixtures.path(file)), file);
    }

    @ParameterizedTest
    @MethodSource("numpyFiles")
    void readsTheSameFromAStream(String file) throws IOException {
        try (InputStream in = Files.newInputStream(Fixtures.path(file))) {
            Fixtures.assertMatches(Npy.read(in), file);
            assertThat(in.read()).as("the stream ends after the array").isEqualTo(-1);
        }
    }

    @ParameterizedTest
    @MethodSource("twins")
    void writesNumpysBytes(String file) throws IOException {
        Path written = dir.resolve("out.npy");
        Npy.write(written, Fixtures.tensor(file));
        assertThat(Files.readAllBytes(written)).as(file).isEqualTo(Files.readAllBytes(Fixtures.path(file)));
        Fixtures.assertMatches(Npy.read(written), file);
    }

    @Test
    void convertedTypesAreWrittenAsTheirTensorType() throws IOException {
        // float16 read as float32 is written as <f4, int64 read as int32 as <i4, Fortran order as C order
        for (String file : List.of("npy/f2.npy", "npy/i8.npy", "npy/be_f8.npy", "npy/fortran_i4_3d.npy", "npy/v3.npy")) {
            Tensor tensor = Npy.read(Fixtures.path(file));
            Path written = dir.resolve("converted.npy");
            Npy.write(written, tensor);
            String header = new String(Files.readAllBytes(written), 0, 64, StandardCharsets.ISO_8859_1);
            assertThat(header).as(file).startsWith("\u0093NUMPY\u0001\u0000v\u0000{'descr': '"
                    + ElementType.of(tensor.dtype()).numpyDescr() + "', 'fortran_order': False, 'shape': (");
            Fixtures.assertMatches(Npy.read(written), file);
        }
    }

    @Test
    void fortranOrderIsTransposedToCOrder() {
        Tensor tensor = Npy.read(Fixtures.path("npy/fortran_i4_3d.npy"));
        assertThat(tensor.shape()).containsExactly(2, 3, 4);
        // element [i, j, k] is at column-major position i + 2 j + 6 k in the file, row-major 12 i + 4 j + k here
        Fixtures.assertMatches(tensor, "npy/fortran_i4_3d.npy");
    }

    @Test
    void arraysSavedOneAfterAnotherReadInTurn() throws IOException {
        try (InputStream in = Files.newInputStream(Fixtures.path("npy/two_arrays.npy"))) {
            Fixtures.assertMatches(Npy.read(in), "npy/two_arrays.npy#0");
            Fixtures.assertMatches(Npy.read(in), "npy/two_arrays.npy#1");
            assertThat(in.read()).isEqualTo(-1);
        }
        assertThatThrownBy(() -> Npy.read(Fixtures.path("npy/two_arrays.npy")))
                .isInstanceOf(TensorFormatException.class).hasMessageContaining("unexpected bytes after the data");
    }

    @Test
    void streamWritesAndReadsSeveralArrays() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Tensor a = Tensor.of(new float[] {1, Float.NaN, -0f, Float.MIN_VALUE}, 2, 2);
        Tensor b = Tensor.of(new boolean[] {true, false, true});
        Tensor c = Tensor.scalar(-7, DType.INT32);
        Npy.write(out, a);
        Npy.write(out, b);
        Npy.write(out, c);
        InputStream in = new ByteArrayInputStream(out.toByteArray());
        for (Tensor expected : List.of(a, b, c)) {
            Tensor actual = Npy.read(in);
            assertThat(actual.dtype()).isEqualTo(expected.dtype());
            assertThat(actual.shape()).isEqualTo(expected.shape());
            assertThat(Fixtures.bits(actual)).isEqualTo(Fixtures.bits(expected));
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "bad/object.npy      | object arrays ('|O') are not supported",
        "bad/structured.npy  | structured dtypes",
        "bad/complex.npy     | unsupported dtype '<c8'",
        "bad/unicode.npy     | unsupported dtype '<U2'",
        "bad/datetime.npy    | unsupported dtype '<M8[D]'",
        "bad/f16.npy         | unsupported dtype '<f16'",
        "bad/i8_overflow.npy | element 1 (2147483648) does not fit in int32",
        "bad/u4_overflow.npy | element 0 (4294967295) does not fit in int32"})
    void rejectsWhatATensorCannotHold(String file, String message) {
        assertThatThrownBy(() -> Npy.read(Fixtures.path(file)))
                .isInstanceOf(TensorFormatException.class)
                .hasMessageStartingWith(Fixtures.path(file).toString() + ": ")
                .hasMessageContaining(message);
    }

    @Test
    void headerMatchesNumpysLayout() {
        // numpy: dict, spare spaces for a first length of 21 digits, padding to 64 bytes, newline
        byte[] header = NpyHeader.wrap(NpyHeader.format("<f4", new int[] {2, 3}));
        String text = new String(header, StandardCharsets.ISO_8859_1);
        assertThat(header).hasSize(128);
        assertThat(text).startsWith("\u0093NUMPY\u0001\u0000v\u0000{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }")
                .endsWith(" \n");
        assertThat(NpyHeader.format("|b1", new int[0])).isEqualTo("{'descr': '|b1', 'fortran_order': False, 'shape': (), }");
        assertThat(NpyHeader.format("<i4", new int[] {7})).isEqualTo("{'descr': '<i4', 'fortran_order': False, 'shape': (7,), }"
                + " ".repeat(20));
    }

    @Test
    void aHeaderPast65535BytesIsWrittenAsVersion2() {
        String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + "1, ".repeat(30000) + "), }";
        byte[] header = NpyHeader.wrap(dict);
        assertThat(header[6]).as("major version").isEqualTo((byte) 2);
        assertThat(header.length % 64).isZero();
        int length = (header[8] & 0xff) | (header[9] & 0xff) << 8 | (header[10] & 0xff) << 16 | (header[11] & 0xff) << 24;
        assertThat(12 + length).isEqualTo(header.length);
        NpyHeader.Parsed parsed = NpyHeader.parse("test", new String(header, 12, length, StandardCharsets.ISO_8859_1));
        assertThat(parsed.shape()).hasSize(30000).containsOnly(1L);
        assertThat(parsed.type()).isEqualTo(ElementType.F32);
    }

    @Test
    void aTensorOfHugeRankRoundTripsThroughVersion2() throws IOException {
        int[] shape = new int[25000];
        Arrays.fill(shape, 1);
        Tensor tensor = Tensor.of(new float[] {2.5f}, shape);
        Path written = dir.resolve("rank.npy");
        Npy.write(written, tensor);
        assertThat(Files.readAllBytes(written)[6]).isEqualTo((byte) 2);
        Tensor back = Npy.read(written);
        assertThat(back.shape()).isEqualTo(shape);
        assertThat(back.toFloatArray()).containsExactly(2.5f);
    }

    @Test
    void everyTypeRoundTrips() {
        List<Tensor> tensors = List.of(
                Tensor.of(new float[] {Float.NaN, Float.NEGATIVE_INFINITY, -0f, 1e-45f, Float.MAX_VALUE, 3.25f}, 3, 2),
                Tensor.of(new double[] {Double.NaN, Double.MIN_VALUE, -0.0, Math.PI}, 1, 2, 2),
                Tensor.of(new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 42}, 5),
                Tensor.of(new boolean[] {true, false, false, true}, 2, 1, 1, 2, 1),
                Tensor.zeros(DType.FLOAT64, 3, 0),
                Tensor.scalar(1.5, DType.FLOAT64));
        for (Tensor tensor : tensors) {
            Path file = dir.resolve("t.npy");
            Npy.write(file, tensor);
            Tensor back = Npy.read(file);
            assertThat(back.dtype()).isEqualTo(tensor.dtype());
            assertThat(back.shape()).isEqualTo(tensor.shape());
            assertThat(Fixtures.bits(back)).isEqualTo(Fixtures.bits(tensor));
        }
    }

    @ParameterizedTest
    @MethodSource("headerVariants")
    void acceptsWhatPythonsLiteralEvalAccepts(String dict, String descr, boolean fortran, String shape) {
        NpyHeader.Parsed parsed = NpyHeader.parse("test", dict);
        assertThat(parsed.type().numpyDescr().substring(1)).isEqualTo(descr.substring(1));
        assertThat(parsed.fortranOrder()).isEqualTo(fortran);
        assertThat(Arrays.toString(parsed.shape())).isEqualTo(shape);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> headerVariants() {
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }   \n",
                        "<f4", false, "[2, 3]"),
                org.junit.jupiter.params.provider.Arguments.of("{\"shape\":(),\"descr\":\"|b1\",\"fortran_order\":True}",
                        "|b1", true, "[]"),
                org.junit.jupiter.params.provider.Arguments.of("{'descr': '>i8', 'fortran_order': False, 'shape': (4,)}",
                        ">i8", false, "[4]"),
                org.junit.jupiter.params.provider.Arguments.of("{ 'descr' : '<u2' ,\n 'fortran_order' : True , 'shape' : ( 1 , 2 , ) , }",
                        "<u2", true, "[1, 2]"));
    }
}
