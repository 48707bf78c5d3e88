package dev.ein4j.nn.io;

import dev.ein4j.tensor.Tensor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Reads and writes numpy's {@code .npz} archives: a zip of one {@code name.npy} per array, stored
 * ({@code np.savez}) or deflated ({@code np.savez_compressed}).
 *
 * <pre>{@code
 * Npz.write(Path.of("batch.npz"), Map.of("x", images, "y", labels));           // np.savez
 * Npz.write(Path.of("batch.npz"), Map.of("x", images, "y", labels), true);     // np.savez_compressed
 * Map<String, Tensor> arrays = Npz.read(Path.of("batch.npz"));                 // np.load(...)["x"]
 * }</pre>
 *
 * <p>Each entry is read as {@link Npy#read(Path)} reads a file, with the same types and checks. The
 * archive is rejected with a {@link TensorFormatException} if it is not a zip, if an entry is not
 * named {@code *.npy} (a directory, another file) or two entries give the same name, if an entry's
 * compressed data is corrupt, or if its array is not exactly the entry's bytes. A compressed entry
 * whose declared size lies is read as data arrives, so it cannot make the reader allocate more than
 * the bytes it really holds.
 */
public final class Npz {

    private Npz() {
    }

    /**
     * @param file an .npz archive
     * @return its arrays by name (the entry name without {@code .npy}), in the order of the archive
     *     (a mutable map)
     * @throws TensorFormatException if the archive or one of its arrays is not valid
     */
    public static Map<String, Tensor> read(Path file) {
        Objects.requireNonNull(file, "file");
        String source = file.toString();
        Map<String, Tensor> arrays = new LinkedHashMap<>();
        try (ZipFile zip = new ZipFile(file.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                String entryName = entry.getName();
                String where = source + ": entry '" + entryName + "'";
                if (entry.isDirectory() || !entryName.endsWith(".npy")) {
                    throw Limits.fail(where, "not an .npy array (an .npz holds only name.npy entries)");
                }
                String name = entryName.substring(0, entryName.length() - ".npy".length());
                if (arrays.containsKey(name)) {
                    throw Limits.fail(where, "a second array named '" + name + "'");
                }
                try (InputStream in = zip.getInputStream(entry)) {
                    arrays.put(name, Npy.read(where, in, entry.getSize(), false, true));
                } catch (IOException e) {
                    throw DataReader.failure(where, e);
                }
            }
        } catch (ZipException e) {
            throw new TensorFormatException(source + ": not a valid zip archive: " + e.getMessage(), e);
        } catch (IOException e) {
            throw DataReader.failure(source, e);
        }
        return arrays;
    }

    /**
     * Writes tensors uncompressed, as {@code np.savez}: one stored entry {@code name.npy} each, in
     * the map's order.
     *
     * @param file the archive to create or replace
     * @param tensors the tensors by name (computed now)
     */
    public static void write(Path file, Map<String, Tensor> tensors) {
        write(file, tensors, false);
    }

    /**
     * Writes tensors, one entry {@code name.npy} each in the map's order, stored or deflated.
     *
     * @param file the archive to create or replace
     * @param tensors the tensors by name (computed now)
     * @param compressed deflate the entries ({@code np.savez_compressed}) instead of storing them
     */
    public static void write(Path file, Map<String, Tensor> tensors, boolean compressed) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(tensors, "tensors");
        Map<String, Tensor> copy = new LinkedHashMap<>();
        for (Map.Entry<String, Tensor> entry : tensors.entrySet()) {
            String name = Objects.requireNonNull(entry.getKey(), "tensors contains a null name");
            copy.put(Writing.checkUnicode(name, "array name"),
                    Objects.requireNonNull(entry.getValue(), "tensors contains a null tensor for '" + name + "'"));
        }
        Writing.toFile(file, out -> {
            ZipOutputStream zip = new ZipOutputStream(out);
            for (Map.Entry<String, Tensor> entry : copy.entrySet()) {
                writeEntry(zip, entry.getKey() + ".npy", entry.getValue(), compressed);
            }
            zip.finish();
        });
    }

    private static void writeEntry(ZipOutputStream zip, String name, Tensor tensor, boolean compressed) throws IOException {
        Values values = Values.of(tensor);
        ZipEntry entry = new ZipEntry(name);
        if (compressed) {
            entry.setMethod(ZipEntry.DEFLATED);
        } else {
            // a stored entry declares its size and checksum before its data: one pass to count them
            Counter counter = new Counter();
            Npy.write(counter, tensor, values);
            entry.setMethod(ZipEntry.STORED);
            entry.setSize(counter.bytes);
            entry.setCompressedSize(counter.bytes);
            entry.setCrc(counter.crc.getValue());
        }
        zip.putNextEntry(entry);
        Npy.write(zip, tensor, values);
        zip.closeEntry();
    }

    /** Counts and checksums the bytes written to it, and keeps none. */
    private static final class Counter extends OutputStream {
        private final CRC32 crc = new CRC32();
        private long bytes;

        @Override
        public void write(int b) {
            crc.update(b);
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            crc.update(b, off, len);
            bytes += len;
        }
    }
}
