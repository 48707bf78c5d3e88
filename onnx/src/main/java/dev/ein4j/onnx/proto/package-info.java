/**
 * The ONNX messages the exporter writes, from the ONNX IR specification ({@code onnx.proto}):
 * {@link dev.ein4j.onnx.proto.Model} (ModelProto), {@link dev.ein4j.onnx.proto.Graph} (GraphProto),
 * {@link dev.ein4j.onnx.proto.OperatorNode} (NodeProto), {@link dev.ein4j.onnx.proto.Attribute}
 * (AttributeProto), {@link dev.ein4j.onnx.proto.TensorData} (TensorProto, elements as raw data),
 * {@link dev.ein4j.onnx.proto.ValueInfo} (ValueInfoProto with its TypeProto and TensorShapeProto)
 * and {@link dev.ein4j.onnx.proto.OperatorSetId} (OperatorSetIdProto). Each writes its fields with
 * their specified numbers over protobuf-java's {@code CodedOutputStream}; no generated code.
 */
package dev.ein4j.onnx.proto;
