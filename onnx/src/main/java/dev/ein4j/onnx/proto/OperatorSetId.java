package dev.ein4j.onnx.proto;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.util.Objects;

/**
 * ONNX's {@code OperatorSetIdProto}: an operator set the model imports, {@code domain} (1) and
 * {@code version} (2). The default domain, {@code ai.onnx}, is the empty string.
 *
 * @param domain the operator domain, "" for the standard operators
 * @param version the opset version, e.g. 17
 */
public record OperatorSetId(String domain, long version) implements ProtoMessage {

    /** @throws NullPointerException if the domain is null */
    public OperatorSetId {
        Objects.requireNonNull(domain, "domain");
    }

    @Override
    public long serializedSize() {
        return (domain.isEmpty() ? 0 : CodedOutputStream.computeStringSize(1, domain))
                + CodedOutputStream.computeInt64Size(2, version);
    }

    @Override
    public void writeTo(CodedOutputStream output) throws IOException {
        Objects.requireNonNull(output, "output");
        if (!domain.isEmpty()) {
            output.writeString(1, domain);
        }
        output.writeInt64(2, version);
    }
}
