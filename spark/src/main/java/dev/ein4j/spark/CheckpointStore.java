package dev.ein4j.spark;

import dev.ein4j.nn.io.SafeTensors;
import dev.ein4j.tensor.Tensor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The checkpoint directory: one safetensors file per finished epoch ({@code epoch-0003.safetensors},
 * epoch 0 holding the initial parameters), written by worker 0 and read by every worker at the start
 * of the next epoch and by the driver. Any Hadoop file system works (a local directory in local
 * mode; {@code hdfs://}, {@code s3a://} or a shared mount on a cluster): files go through a local
 * temporary file, and a checkpoint appears under its final name only once complete (written aside,
 * then renamed), so a reader never sees half a file.
 */
final class CheckpointStore implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String directory;
    private final byte[] hadoopConfiguration; // Configuration is Writable, not Serializable
    private transient FileSystem fileSystem;

    private CheckpointStore(String directory, byte[] hadoopConfiguration) {
        this.directory = directory;
        this.hadoopConfiguration = hadoopConfiguration;
    }

    /**
     * @param directory a directory URI or path that the driver and every executor reach
     * @param configuration the Hadoop configuration to reach it with (the SparkContext's)
     * @return the store
     */
    static CheckpointStore create(String directory, Configuration configuration) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            configuration.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new CheckpointStore(directory, bytes.toByteArray());
    }

    /** @return the directory as given */
    String directory() {
        return directory;
    }

    /**
     * @param epoch an epoch, 0 for the initial parameters
     * @return where its checkpoint is
     */
    String location(int epoch) {
        return file(epoch).toString();
    }

    /**
     * Writes an epoch's checkpoint, replacing an earlier one of that epoch.
     *
     * @param epoch the epoch
     * @param tensors the tensors by name
     * @param metadata string metadata for the header
     */
    void write(int epoch, Map<String, Tensor> tensors, Map<String, String> metadata) {
        Path target = file(epoch);
        Path partial = new Path(target.getParent(), "." + target.getName() + "." + UUID.randomUUID() + ".partial");
        java.nio.file.Path local = temporaryFile();
        try {
            SafeTensors.write(local, tensors, metadata);
            FileSystem system = fileSystem();
            system.mkdirs(target.getParent());
            try (OutputStream out = system.create(partial, true)) {
                Files.copy(local, out);
            }
            system.delete(target, false);
            if (!system.rename(partial, target)) {
                throw new IOException("cannot rename " + partial + " to " + target);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the checkpoint of epoch " + epoch + " to " + target + ": "
                    + e.getMessage(), e);
        } finally {
            deleteQuietly(local);
        }
    }

    /**
     * @param epoch an epoch whose checkpoint was written
     * @return its tensors by name
     */
    Map<String, Tensor> read(int epoch) {
        return readLocally(epoch, SafeTensors::read);
    }

    /**
     * @param epoch an epoch whose checkpoint was written
     * @return its header's metadata
     */
    Map<String, String> metadata(int epoch) {
        return readLocally(epoch, SafeTensors::readMetadata);
    }

    /**
     * Writes a small text file under {@code failures/} (a worker's report of its failure).
     *
     * @param name the file's name
     * @param bytes its content
     */
    void writeReport(String name, byte[] bytes) {
        Path target = new Path(new Path(directory, "failures"), name);
        try (OutputStream out = fileSystem().create(target, true)) {
            out.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param name a report's file name
     * @return its content, or null if there is no such report
     */
    byte[] readReport(String name) {
        Path source = new Path(new Path(directory, "failures"), name);
        try {
            FileSystem system = fileSystem();
            if (!system.exists(source)) {
                return null;
            }
            try (InputStream in = system.open(source)) {
                return in.readAllBytes();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source + ": " + e.getMessage(), e);
        }
    }

    /** Deletes the whole directory (a temporary one the trainer made). */
    void deleteDirectory() {
        try {
            fileSystem().delete(new Path(directory), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory + ": " + e.getMessage(), e);
        }
    }

    private interface LocalReader<T> {
        T read(java.nio.file.Path file);
    }

    private <T> T readLocally(int epoch, LocalReader<T> reader) {
        Path source = file(epoch);
        java.nio.file.Path local = temporaryFile();
        try {
            try (InputStream in = fileSystem().open(source)) {
                Files.copy(in, local, StandardCopyOption.REPLACE_EXISTING);
            }
            return reader.read(local);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the checkpoint of epoch " + epoch + " from " + source + ": "
                    + e.getMessage(), e);
        } finally {
            deleteQuietly(local);
        }
    }

    private Path file(int epoch) {
        return new Path(directory, String.format("epoch-%04d.safetensors", epoch));
    }

    private FileSystem fileSystem() throws IOException {
        if (fileSystem == null) {
            Configuration configuration = new Configuration(false);
            configuration.readFields(new DataInputStream(new ByteArrayInputStream(hadoopConfiguration)));
            fileSystem = new Path(directory).getFileSystem(configuration);
        }
        return fileSystem;
    }

    private static java.nio.file.Path temporaryFile() {
        try {
            return Files.createTempFile("ein4j-checkpoint", ".safetensors");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a local temporary file for a checkpoint: " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(java.nio.file.Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a leftover temporary file is harmless
        }
    }
}
