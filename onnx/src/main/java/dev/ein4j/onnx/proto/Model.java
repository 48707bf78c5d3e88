package dev.ein4j.onnx.proto;

import com.google.protobuf.CodedOutputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Objects;

/**
 * ONNX's {@code ModelProto}, the content of a {@code .onnx} file: {@code ir_version} (1),
 * {@code producer_name} (2), {@code producer_version} (3), {@code doc_string} (6), {@code graph}
 * (7) and {@code opset_import} (8). One protobuf message may not exceed 2 GiB; larger models would
 * need ONNX's external data files, which are not written.
 *
 * @param irVersion the ONNX IR version the file follows (8 for opsets 17 and 18)
 * @param opsets the operator sets the graph uses
 * @param producerName the writer's name
 * @param producerVersion the writer's version
 * @param docString a description
 * @param graph the graph
 */
public record Model(long irVersion, List<OperatorSetId> opsets, String producerName, String producerVersion,
        String docString, Graph graph) implements ProtoMessage {

    /** The largest message protobuf parsers read. */
    public static final long MAX_BYTES = Integer.MAX_VALUE;

    /** @throws NullPointerException if an argument is null */
    public Model {
        opsets = List.copyOf(Objects.requireNonNull(opsets, "opsets"));
        Objects.requireNonNull(producerName, "producerName");
        Objects.requireNonNull(producerVersion, "producerVersion");
        Objects.requireNonNull(docString, "docString");
        Objects.requireNonNull(graph, "graph");
    }

    @Override
    public long serializedSize() {
        return CodedOutputStream.computeInt64Size(1, irVersion) + CodedOutputStream.computeStringSize(2, producerName)
                + CodedOutputStream.computeStringSize(3, producerVersion)
                + (docString.isEmpty() ? 0 : CodedOutputStream.computeStringSize(6, docString))
                + ProtoMessage.nestedSize(7, graph) + ProtoMessage.nestedSize(8, opsets);
    }

    @Override
    public void writeTo(CodedOutputStream output) throws IOException {
        Objects.requireNonNull(output, "output");
        output.writeInt64(1, irVersion);
        output.writeString(2, producerName);
        output.writeString(3, producerVersion);
        if (!docString.isEmpty()) {
            output.writeString(6, docString);
        }
        ProtoMessage.writeNested(output, 7, graph);
        ProtoMessage.writeNested(output, 8, opsets);
    }

    /**
     * @return the encoded model
     * @throws IllegalStateException if it exceeds 2 GiB
     */
    public byte[] toByteArray() {
        byte[] bytes = new byte[(int) checkedSize()];
        CodedOutputStream output = CodedOutputStream.newInstance(bytes);
        try {
            writeTo(output);
        } catch (IOException impossible) {
            throw new IllegalStateException(impossible);
        }
        output.checkNoSpaceLeft();
        return bytes;
    }

    /**
     * Writes the model to a file: to a temporary file beside it first, then moved into place, so
     * that a failure never leaves a truncated model under the file's name.
     *
     * @param file the target
     * @return the number of bytes written
     * @throws IOException if writing fails
     * @throws IllegalStateException if the model exceeds 2 GiB
     */
    public long write(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        long size = checkedSize();
        Path absolute = file.toAbsolutePath();
        Path temporary = Files.createTempFile(absolute.getParent(), absolute.getFileName().toString(), ".partial");
        try {
            try (OutputStream stream = new BufferedOutputStream(Files.newOutputStream(temporary), 1 << 16)) {
                CodedOutputStream output = CodedOutputStream.newInstance(stream, 1 << 16);
                writeTo(output);
                output.flush();
            }
            Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
        return size;
    }

    private long checkedSize() {
        long size = serializedSize();
        if (size > MAX_BYTES) {
            throw new IllegalStateException("the model takes " + size + " bytes, more than the 2 GiB a protobuf message"
                    + " may hold (ONNX's external data files are not written)");
        }
        return size;
    }
}
