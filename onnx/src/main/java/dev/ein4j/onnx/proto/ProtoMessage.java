package dev.ein4j.onnx.proto;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.List;

/**
 * A protobuf message that writes itself in the wire format: its encoded length first (a nested
 * message is length-delimited, so its parent needs the length before the bytes), then its fields
 * in field-number order. Lengths are longs so that a model over protobuf's 2 GiB limit is
 * detected rather than wrapped.
 */
public interface ProtoMessage {

    /** @return the number of bytes {@link #writeTo} writes */
    long serializedSize();

    /**
     * Writes the fields, without a tag or length of its own.
     *
     * @param output the stream
     * @throws IOException if the stream fails
     */
    void writeTo(CodedOutputStream output) throws IOException;

    /**
     * @param field a field number
     * @param message a nested message
     * @return the bytes of the field: tag, length, message
     */
    static long nestedSize(int field, ProtoMessage message) {
        long size = message.serializedSize();
        return CodedOutputStream.computeTagSize(field) + CodedOutputStream.computeUInt64SizeNoTag(size) + size;
    }

    /**
     * @param field a field number
     * @param messages repeated nested messages
     * @return the bytes of every element
     */
    static long nestedSize(int field, List<? extends ProtoMessage> messages) {
        long size = 0;
        for (ProtoMessage message : messages) {
            size += nestedSize(field, message);
        }
        return size;
    }

    /**
     * Writes a nested message as a length-delimited field.
     *
     * @param output the stream
     * @param field the field number
     * @param message the message
     * @throws IOException if the stream fails
     */
    static void writeNested(CodedOutputStream output, int field, ProtoMessage message) throws IOException {
        output.writeTag(field, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        output.writeUInt64NoTag(message.serializedSize());
        message.writeTo(output);
    }

    /** Writes each message of a repeated field. */
    static void writeNested(CodedOutputStream output, int field, List<? extends ProtoMessage> messages) throws IOException {
        for (ProtoMessage message : messages) {
            writeNested(output, field, message);
        }
    }

    /**
     * @param field a field number
     * @param values a repeated int64 field, written packed
     * @return its bytes (none for no values)
     */
    static long packedSize(int field, long[] values) {
        if (values.length == 0) {
            return 0;
        }
        long payload = packedPayload(values);
        return CodedOutputStream.computeTagSize(field) + CodedOutputStream.computeUInt64SizeNoTag(payload) + payload;
    }

    /** Writes a repeated int64 field packed (parsers accept packed and unpacked encodings alike). */
    static void writePacked(CodedOutputStream output, int field, long[] values) throws IOException {
        if (values.length == 0) {
            return;
        }
        output.writeTag(field, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        output.writeUInt64NoTag(packedPayload(values));
        for (long value : values) {
            output.writeInt64NoTag(value);
        }
    }

    private static long packedPayload(long[] values) {
        long payload = 0;
        for (long value : values) {
            payload += CodedOutputStream.computeInt64SizeNoTag(value);
        }
        return payload;
    }

    /**
     * @param field a field number
     * @param values repeated strings
     * @return their bytes
     */
    static long stringsSize(int field, List<String> values) {
        long size = 0;
        for (String value : values) {
            size += CodedOutputStream.computeStringSize(field, value);
        }
        return size;
    }

    /** Writes each string of a repeated field. */
    static void writeStrings(CodedOutputStream output, int field, List<String> values) throws IOException {
        for (String value : values) {
            output.writeString(field, value);
        }
    }
}
