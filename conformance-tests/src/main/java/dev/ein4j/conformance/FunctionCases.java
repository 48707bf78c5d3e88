package dev.ein4j.conformance;

import dev.ein4j.ir.DType;
import dev.ein4j.nn.AttentionOptions;
import dev.ein4j.nn.ConvTransposeOptions;
import dev.ein4j.nn.ConvolutionOptions;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.InterpolateOptions;
import dev.ein4j.nn.InterpolationMode;
import dev.ein4j.nn.LossReduction;
import dev.ein4j.nn.PoolingOptions;
import dev.ein4j.tensor.Reduction;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TopK;
import java.util.List;

/**
 * The {@code function} cases of the conformance format: each PyTorch functional name and its
 * keyword arguments mapped to the ein4j call that does the same.
 */
final class FunctionCases {

    private FunctionCases() {
    }

    /**
     * @param name the function's PyTorch name
     * @param params its keyword arguments
     * @param in the inputs, in the format's order
     * @return the outputs
     * @throws IllegalArgumentException for a name this runner does not know
     */
    static List<Tensor> call(String name, Params params, List<Tensor> in) {
        Tensor x = in.isEmpty() ? null : in.get(0);
        Tensor y = in.size() > 1 ? in.get(1) : null;
        if (name.equals("topk")) { // the one function with two outputs
            TopK top = x.topk(params.integer("k", 1), params.integer("dim", -1), params.flag("largest", true));
            return List.of(top.values(), top.indices());
        }
        return List.of(switch (name) {
            case "neg" -> x.neg();
            case "abs" -> x.abs();
            case "exp" -> x.exp();
            case "log" -> x.log();
            case "log1p" -> x.log1p();
            case "expm1" -> x.expm1();
            case "sqrt" -> x.sqrt();
            case "rsqrt" -> x.rsqrt();
            case "sin" -> x.sin();
            case "cos" -> x.cos();
            case "tanh" -> x.tanh();
            case "sigmoid" -> x.sigmoid();
            case "relu" -> x.relu();
            case "silu" -> x.silu();
            case "softplus" -> x.softplus();
            case "square" -> x.square();
            case "reciprocal" -> x.reciprocal();
            case "sign" -> x.sign();
            case "erf" -> x.erf();
            case "leaky_relu" -> x.leakyRelu(params.number("negative_slope", 0.01));
            case "elu" -> x.elu(params.number("alpha", 1.0));
            case "gelu" -> "tanh".equals(params.text("approximate", "none")) ? x.geluTanh() : x.gelu();
            case "relu6" -> Functional.relu6(x);
            case "hardswish" -> Functional.hardswish(x);
            case "hardsigmoid" -> Functional.hardsigmoid(x);
            case "pow" -> x.pow(params.number("exponent", 1.0));
            case "clamp" -> clamp(x, params.optionalNumber("min"), params.optionalNumber("max"));
            case "add" -> x.add(y);
            case "sub" -> x.sub(y);
            case "mul" -> x.mul(y);
            case "div" -> x.div(y);
            case "maximum" -> x.maximum(y);
            case "minimum" -> x.minimum(y);
            case "lt" -> x.lt(y);
            case "le" -> x.le(y);
            case "gt" -> x.gt(y);
            case "ge" -> x.ge(y);
            case "eq" -> x.eq(y);
            case "ne" -> x.ne(y);
            case "where" -> Tensor.where(x, y, in.get(2));
            case "softmax" -> x.softmax(params.integer("dim", -1));
            case "log_softmax" -> x.logSoftmax(params.integer("dim", -1));
            case "logsumexp" -> x.logSumExp(params.ints("dim"), params.flag("keepdim", false));
            case "sum" -> x.reduce(Reduction.SUM, dims(params, x), params.flag("keepdim", false));
            case "mean" -> x.reduce(Reduction.MEAN, dims(params, x), params.flag("keepdim", false));
            case "amax" -> x.reduce(Reduction.MAX, dims(params, x), params.flag("keepdim", false));
            case "amin" -> x.reduce(Reduction.MIN, dims(params, x), params.flag("keepdim", false));
            case "prod" -> x.reduce(Reduction.PROD, dims(params, x), params.flag("keepdim", false));
            case "var" -> x.var(dims(params, x), params.number("correction", 1), params.flag("keepdim", false));
            case "std" -> x.std(dims(params, x), params.number("correction", 1), params.flag("keepdim", false));
            case "argmax" -> params.has("dim") ? x.argmax(params.integer("dim", 0), params.flag("keepdim", false)) : x.argmax();
            case "argmin" -> params.has("dim") ? x.argmin(params.integer("dim", 0), params.flag("keepdim", false)) : x.argmin();
            case "one_hot" -> x.oneHot(params.integer("num_classes", inferClasses(x)));
            case "cast" -> x.cast(DType.fromNumpyName(params.text("dtype", "float32")));
            case "layer_norm" -> in.size() > 2 ? Functional.layerNorm(x, params.ints("normalized_shape"), y, in.get(2),
                    params.number("eps", 1e-5)) : Functional.layerNorm(x, params.ints("normalized_shape"), params.number("eps", 1e-5));
            case "cross_entropy" -> Functional.crossEntropy(x, y, LossReduction.of(params.text("reduction", "mean")),
                    params.number("label_smoothing", 0.0));
            case "mse_loss" -> Functional.mseLoss(x, y, LossReduction.of(params.text("reduction", "mean")));
            case "linear" -> in.size() > 2 ? Functional.linear(x, y, in.get(2)) : Functional.linear(x, y);
            case "conv1d", "conv2d" -> convolution(name, params, in);
            case "conv_transpose2d" -> convTranspose2d(params, in);
            case "adaptive_avg_pool2d" -> adaptiveAvgPool2d(params, x);
            case "interpolate" -> Functional.interpolate(x, interpolation(params, x.rank() - 2));
            case "group_norm" -> groupNorm(params, in);
            case "rms_norm" -> params.has("eps")
                    ? Functional.rmsNorm(x, params.ints("normalized_shape"), y, params.number("eps", 0))
                    : Functional.rmsNorm(x, params.ints("normalized_shape"), y);
            case "max_pool2d" -> Functional.maxPool2d(x, pooling(params));
            case "avg_pool2d" -> Functional.avgPool2d(x, pooling(params).countIncludePad(params.flag("count_include_pad", true)));
            case "batch_norm" -> batchNorm(params, in);
            case "embedding" -> params.has("padding_idx") ? Functional.embedding(x, y, params.integer("padding_idx", 0))
                    : Functional.embedding(x, y);
            case "gather" -> x.gather(params.integer("dim", 0), y);
            case "index_select" -> x.indexSelect(params.integer("dim", 0), y);
            case "masked_fill" -> x.maskedFill(y, params.number("value", 0));
            case "cumsum" -> x.cumsum(params.integer("dim", 0));
            case "scaled_dot_product_attention" -> attention(params, in);
            default -> throw new IllegalArgumentException("function '" + name + "' is not known to this runner");
        });
    }

    private static Tensor convolution(String name, Params params, List<Tensor> in) {
        ConvolutionOptions options = ConvolutionOptions.defaults().groups(params.integer("groups", 1));
        if (params.has("stride")) {
            options = options.stride(params.ints("stride"));
        }
        if (params.has("dilation")) {
            options = options.dilation(params.ints("dilation"));
        }
        if (params.isText("padding")) {
            String padding = params.text("padding", "valid");
            options = padding.equals("same") ? options.samePadding() : options;
        } else if (params.has("padding")) {
            options = options.padding(params.ints("padding"));
        }
        boolean twoDimensional = name.equals("conv2d");
        if (in.size() > 2) {
            return twoDimensional ? Functional.conv2d(in.get(0), in.get(1), in.get(2), options)
                    : Functional.conv1d(in.get(0), in.get(1), in.get(2), options);
        }
        return twoDimensional ? Functional.conv2d(in.get(0), in.get(1), options) : Functional.conv1d(in.get(0), in.get(1), options);
    }

    private static Tensor convTranspose2d(Params params, List<Tensor> in) {
        ConvTransposeOptions options = ConvTransposeOptions.defaults().groups(params.integer("groups", 1));
        if (params.has("stride")) {
            options = options.stride(params.ints("stride"));
        }
        if (params.has("padding")) {
            options = options.padding(params.ints("padding"));
        }
        if (params.has("output_padding")) {
            options = options.outputPadding(params.ints("output_padding"));
        }
        if (params.has("dilation")) {
            options = options.dilation(params.ints("dilation"));
        }
        return in.size() > 2 ? Functional.convTranspose2d(in.get(0), in.get(1), in.get(2), options)
                : Functional.convTranspose2d(in.get(0), in.get(1), options);
    }

    /** output_size: an int, or two entries of which a null keeps the input's length. */
    private static Tensor adaptiveAvgPool2d(Params params, Tensor x) {
        Integer[] size = params.nullableInts("output_size");
        if (size == null || size.length != (params.isList("output_size") ? 2 : 1)) {
            throw new dev.ein4j.error.EinopsException("adaptive_avg_pool2d: output_size must be an int or 2 values, got "
                    + params);
        }
        int[] lengths = new int[2];
        for (int i = 0; i < 2; i++) {
            Integer given = size[size.length == 1 ? 0 : i];
            lengths[i] = given != null ? given : x.rank() >= 2 ? x.length(x.rank() - 2 + i) : 0;
        }
        return Functional.adaptiveAvgPool2d(x, lengths[0], lengths[1]);
    }

    /** size or scale_factor: an int applies to every spatial dimension, a list has one entry each. */
    private static InterpolateOptions interpolation(Params params, int spatial) {
        if (params.has("size") == params.has("scale_factor")) {
            throw new dev.ein4j.error.EinopsException("interpolate: give exactly one of size and scale_factor, got " + params);
        }
        String given = params.has("size") ? "size" : "scale_factor";
        if (params.isList(given) && params.numbers(given).length != spatial) {
            throw new dev.ein4j.error.EinopsException("interpolate: " + given + " needs " + spatial
                    + " values (one per spatial dimension), got " + params);
        }
        InterpolateOptions options = params.has("size") ? InterpolateOptions.size(params.ints("size"))
                : InterpolateOptions.scaleFactor(params.numbers("scale_factor"));
        options = options.mode(InterpolationMode.of(params.text("mode", "nearest")));
        if (params.has("align_corners")) {
            options = options.alignCorners(params.flag("align_corners", false));
        }
        return options.recomputeScaleFactor(params.flag("recompute_scale_factor", false));
    }

    /** group_norm's optional trailing inputs: weight, then bias (zeros when only the weight is given). */
    private static Tensor groupNorm(Params params, List<Tensor> in) {
        Tensor x = in.get(0);
        int groups = params.integer("num_groups", 1);
        double eps = params.number("eps", 1e-5);
        if (in.size() < 2) {
            return Functional.groupNorm(x, groups, eps);
        }
        Tensor bias = in.size() > 2 ? in.get(2) : Tensor.zeros(in.get(1).dtype(), in.get(1).shape());
        return Functional.groupNorm(x, groups, in.get(1), bias, eps);
    }

    private static PoolingOptions pooling(Params params) {
        PoolingOptions options = PoolingOptions.kernel(params.ints("kernel_size"));
        if (params.has("stride") && params.ints("stride").length > 0) { // PyTorch's stride=None or [] means the kernel size
            options = options.stride(params.ints("stride"));
        }
        if (params.has("padding")) {
            options = options.padding(params.ints("padding"));
        }
        if (params.has("dilation")) {
            options = options.dilation(params.ints("dilation"));
        }
        if (params.has("divisor_override")) {
            options = options.divisorOverride(params.integer("divisor_override", 1));
        }
        return options;
    }

    /** batch_norm's optional trailing inputs: running mean and variance, weight, bias. */
    private static Tensor batchNorm(Params params, List<Tensor> in) {
        Tensor x = in.get(0);
        boolean training = params.flag("training", false);
        double momentum = params.number("momentum", 0.1);
        double eps = params.number("eps", 1e-5);
        int channels = x.rank() > 1 ? x.length(1) : 1;
        Tensor weight = in.size() > 3 ? in.get(3) : Tensor.ones(x.dtype(), channels);
        Tensor bias = in.size() > 4 ? in.get(4) : Tensor.zeros(x.dtype(), channels);
        if (in.size() < 3) {
            if (!training) {
                throw new dev.ein4j.error.EinopsException("batch_norm in evaluation mode needs the running statistics");
            }
            return Functional.batchNorm(x, weight, bias, eps);
        }
        return Functional.batchNorm(x, in.get(1), in.get(2), weight, bias, training, momentum, eps);
    }

    private static Tensor attention(Params params, List<Tensor> in) {
        AttentionOptions options = AttentionOptions.defaults().causal(params.flag("is_causal", false))
                .enableGqa(params.flag("enable_gqa", false));
        if (in.size() > 3) {
            options = options.mask(in.get(3));
        }
        if (params.has("scale")) {
            options = options.scale(params.number("scale", 1.0));
        }
        return Functional.scaledDotProductAttention(in.get(0), in.get(1), in.get(2), options);
    }

    private static Tensor clamp(Tensor x, Double min, Double max) {
        if (min != null && max != null) {
            return x.clamp(min, max);
        }
        return min != null ? x.clampMin(min) : max != null ? x.clampMax(max) : x;
    }

    /** PyTorch's dim argument: absent means every dimension. */
    private static int[] dims(Params params, Tensor x) {
        int[] dims = params.ints("dim");
        return dims != null ? dims : java.util.stream.IntStream.range(0, x.rank()).toArray();
    }

    /** one_hot's default num_classes = max index + 1, read from the data (as PyTorch does). */
    private static int inferClasses(Tensor indices) {
        int max = -1;
        for (int index : indices.toIntArray()) {
            max = Math.max(max, index);
        }
        return max + 1;
    }
}
