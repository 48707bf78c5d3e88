/**
 * Tensors in files: safetensors ({@link dev.ein4j.nn.io.SafeTensors}), numpy's .npy and .npz
 * ({@link dev.ein4j.nn.io.Npy}, {@link dev.ein4j.nn.io.Npz}) and the IDX files of MNIST
 * ({@link dev.ein4j.nn.io.Idx}).
 *
 * <pre>{@code
 * SafeTensors.write(Path.of("model.safetensors"), Map.of("fc.weight", w, "fc.bias", b));
 * Map<String, Tensor> state = SafeTensors.read(Path.of("model.safetensors"));
 * Tensor x = Npy.read(Path.of("x.npy"));
 * Tensor images = Idx.readImages(Path.of("train-images-idx3-ubyte.gz"));
 * }</pre>
 *
 * <p>Every reader is strict and safe on hostile input: a header's claims (lengths, offsets, element
 * counts) are checked against each other and against the size of the file before anything is
 * allocated, and anything malformed is a {@link dev.ein4j.nn.io.TensorFormatException} (an
 * {@link dev.ein4j.error.EinopsException}); failures of the I/O itself are
 * {@link java.io.UncheckedIOException}s. A null argument is a {@link NullPointerException} naming
 * the parameter.
 */
package dev.ein4j.nn.io;
