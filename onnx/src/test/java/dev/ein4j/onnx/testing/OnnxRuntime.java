package dev.ein4j.onnx.testing;

import static org.assertj.core.api.Assertions.assertThat;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.ein4j.ir.DType;
import dev.ein4j.tensor.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs exported models in ONNX Runtime for Java and compares its outputs with ein4j's; shared with
 * the examples' tests as the onnx module's test-jar.
 */
public final class OnnxRuntime {

    /** One output: its shape, ONNX Runtime's element type, and its elements as doubles. */
    public record Output(long[] shape, OnnxJavaType type, double[] values) {
    }

    private OnnxRuntime() {
    }

    /**
     * @param model the model file
     * @param inputs one tensor per graph input, in order; int32 tensors are fed as int64 when the model declares int64
     * @return every output, in order
     */
    public static List<Output> run(Path model, List<Tensor> inputs) {
        OrtEnvironment environment = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            try (OrtSession session = environment.createSession(model.toString(), options)) {
                List<String> names = new ArrayList<>(session.getInputNames());
                Map<String, OnnxTensor> feeds = new LinkedHashMap<>();
                try {
                    for (int i = 0; i < inputs.size(); i++) {
                        String name = names.get(i);
                        OnnxJavaType declared = ((ai.onnxruntime.TensorInfo) session.getInputInfo().get(name).getInfo()).type;
                        feeds.put(name, tensor(environment, inputs.get(i), declared));
                    }
                    try (OrtSession.Result result = session.run(feeds)) {
                        List<Output> outputs = new ArrayList<>();
                        for (int i = 0; i < result.size(); i++) {
                            outputs.add(read((OnnxTensor) result.get(i)));
                        }
                        return outputs;
                    }
                } finally {
                    feeds.values().forEach(OnnxTensor::close);
                }
            }
        } catch (OrtException e) {
            throw new AssertionError("ONNX Runtime fails on " + model + ": " + e.getMessage(), e);
        }
    }

    private static OnnxTensor tensor(OrtEnvironment environment, Tensor tensor, OnnxJavaType declared) throws OrtException {
        long[] shape = Arrays.stream(tensor.shape()).asLongStream().toArray();
        return switch (tensor.dtype()) {
            case FLOAT32 -> OnnxTensor.createTensor(environment, FloatBuffer.wrap(tensor.toFloatArray()), shape);
            case FLOAT64 -> OnnxTensor.createTensor(environment, DoubleBuffer.wrap(tensor.toDoubleArray()), shape);
            case INT32 -> declared == OnnxJavaType.INT64
                    ? OnnxTensor.createTensor(environment, LongBuffer.wrap(Arrays.stream(tensor.toIntArray()).asLongStream().toArray()), shape)
                    : OnnxTensor.createTensor(environment, IntBuffer.wrap(tensor.toIntArray()), shape);
            case BOOL -> {
                boolean[] values = tensor.toBooleanArray();
                ByteBuffer bytes = ByteBuffer.allocateDirect(values.length).order(ByteOrder.nativeOrder());
                for (boolean value : values) {
                    bytes.put((byte) (value ? 1 : 0));
                }
                bytes.rewind();
                yield OnnxTensor.createTensor(environment, bytes, shape, OnnxJavaType.BOOL);
            }
        };
    }

    private static Output read(OnnxTensor tensor) {
        long[] shape = tensor.getInfo().getShape();
        OnnxJavaType type = tensor.getInfo().type;
        double[] values;
        switch (type) {
            case FLOAT -> {
                FloatBuffer buffer = tensor.getFloatBuffer();
                values = new double[buffer.remaining()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = buffer.get(i);
                }
            }
            case DOUBLE -> {
                DoubleBuffer buffer = tensor.getDoubleBuffer();
                values = new double[buffer.remaining()];
                buffer.get(values);
            }
            case INT32 -> values = Arrays.stream(toArray(tensor.getIntBuffer())).asDoubleStream().toArray();
            case INT64 -> {
                LongBuffer buffer = tensor.getLongBuffer();
                values = new double[buffer.remaining()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = buffer.get(i);
                }
            }
            case BOOL -> {
                ByteBuffer buffer = tensor.getByteBuffer();
                values = new double[buffer.remaining()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = buffer.get(i) != 0 ? 1 : 0;
                }
            }
            default -> throw new AssertionError("unexpected output type " + type);
        }
        return new Output(shape, type, values);
    }

    private static int[] toArray(IntBuffer buffer) {
        int[] values = new int[buffer.remaining()];
        buffer.get(values);
        return values;
    }

    /**
     * Asserts that ONNX Runtime's output is ein4j's: same shape and type, integers and bools
     * exactly, floats within {@code tolerance} of the largest magnitude (NaN where ein4j has NaN).
     */
    public static void assertAgrees(String what, Tensor expected, Output actual, double tolerance) {
        assertThat(actual.shape()).as(what + ": shape").isEqualTo(Arrays.stream(expected.shape()).asLongStream().toArray());
        OnnxJavaType type = switch (expected.dtype()) {
            case FLOAT32 -> OnnxJavaType.FLOAT;
            case FLOAT64 -> OnnxJavaType.DOUBLE;
            case INT32 -> OnnxJavaType.INT32;
            case BOOL -> OnnxJavaType.BOOL;
        };
        assertThat(actual.type()).as(what + ": type").isEqualTo(type);
        double[] want = expected.toDoubleArray();
        double[] got = actual.values();
        double scale = 1;
        for (double value : want) {
            if (Double.isFinite(value)) {
                scale = Math.max(scale, Math.abs(value));
            }
        }
        for (int i = 0; i < want.length; i++) {
            if (Double.isNaN(want[i])) {
                assertThat(Double.isNaN(got[i])).as(what + ": element " + i + " is " + got[i] + ", ein4j gives NaN").isTrue();
            } else if (!expected.dtype().isFloating() || Double.isInfinite(want[i])) {
                assertThat(got[i]).as(what + ": element " + i).isEqualTo(want[i]);
            } else {
                assertThat(Math.abs(got[i] - want[i])).as(what + ": element " + i + " is " + got[i] + ", ein4j gives "
                        + want[i]).isLessThanOrEqualTo(tolerance * scale);
            }
        }
    }

    /** The tolerance for a float32 result (1e-4 of the largest magnitude) or a float64 one. */
    public static double tolerance(DType dtype) {
        return dtype == DType.FLOAT64 ? 1e-9 : 1e-4;
    }
}
