/**
 * ONNX export. {@link dev.ein4j.onnx.Onnx#export} traces one call of a module or function
 * ({@code Tracer}; twice for a dynamic batch, compared by {@code BatchFactors}), decides what becomes
 * a graph input, an initializer or operators ({@code Plan}), and translates the needed nodes in
 * post-order through one table ({@code Translations}: movement, elementwise, reductions with
 * pooling recognition, contractions as MatMul or, over windows, Conv). {@code GraphOps} simplifies
 * as it emits (identity and consecutive reshapes and transposes, shape ops on constants) and computes
 * lengths that follow a dynamic batch from the input's {@code Shape}. The messages are in
 * {@link dev.ein4j.onnx.proto}.
 */
package dev.ein4j.onnx;
