package dev.ein4j.examples.models;

import dev.ein4j.error.EinopsException;
import java.io.InputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Token ids in .npy files as transformers' users keep them: int64 (what {@code generate} returns and
 * {@code np.save} writes for Python ints), or int32. The tensors of this library are int32, which
 * {@link dev.ein4j.nn.io.Npy} reads either type into; this class tells which type a file holds and
 * writes int64 files with numpy's exact bytes.
 */
final class TokenIdFiles {

    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");

    private TokenIdFiles() {
    }

    /**
     * @param file an .npy file (already read successfully by {@code Npy.read})
     * @return whether its elements are 32-bit integers ({@code <i4} or {@code >i4})
     */
    static boolean holdsInt32(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] prefix = in.readNBytes(8);
            int major = prefix.length == 8 ? prefix[6] & 0xff : 1;
            byte[] field = in.readNBytes(major == 1 ? 2 : 4);
            ByteBuffer length = ByteBuffer.wrap(java.util.Arrays.copyOf(field, 4)).order(ByteOrder.LITTLE_ENDIAN);
            String header = new String(in.readNBytes(length.getInt()), StandardCharsets.ISO_8859_1);
            Matcher descr = DESCR.matcher(header);
            return descr.find() && descr.group(1).matches("[<>=]i4");
        } catch (IOException e) {
            throw new EinopsException(file + ": cannot be read: " + e.getMessage());
        }
    }

    /**
     * Writes int64 [rows, columns] as {@code np.save} does: format 1.0, little-endian {@code <i8}, the
     * header padded with spaces to a multiple of 64 bytes and ended by a newline.
     *
     * @param file the file to create or replace
     * @param values the elements, row-major
     * @param rows the first length
     * @param columns the second length
     */
    static void writeInt64(Path file, int[] values, int rows, int columns) {
        String dictionary = "{'descr': '<i8', 'fortran_order': False, 'shape': (" + rows + ", " + columns + "), }";
        int unpadded = 10 + dictionary.length() + 1;
        int headerLength = (unpadded + 63) / 64 * 64 - 10;
        ByteBuffer bytes = ByteBuffer.allocate(10 + headerLength + 8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        bytes.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        bytes.putShort((short) headerLength);
        bytes.put((dictionary + " ".repeat(headerLength - dictionary.length() - 1) + "\n").getBytes(StandardCharsets.US_ASCII));
        for (int value : values) {
            bytes.putLong(value);
        }
        try {
            Files.write(file, bytes.array());
        } catch (IOException e) {
            throw new EinopsException(file + ": cannot be written: " + e.getMessage());
        }
    }
}
