package dev.ein4j.models;

import dev.ein4j.error.ShapeException;
import dev.ein4j.tensor.Tensor;
import java.util.Arrays;
import java.util.Objects;

/**
 * A model that reads images and gives one row of class logits per image:
 * {@code ViTForImageClassification}, {@code ResNetForImageClassification},
 * {@code MobileNetV2ForImageClassification}, {@code ConvNextForImageClassification}.
 *
 * <pre>{@code
 * ImageClassifier model = (ImageClassifier) AutoModel.load(Path.of("models/resnet"));
 * Tensor logits = model.logits(pixels);                  // float32 [b, 3, h, w] -> [b, num_labels]
 * Tensor features = model.features(pixels);              // [b, featureSize()], what the classifier reads
 * }</pre>
 */
public abstract class ImageClassifier extends PretrainedModel {

    private final int numChannels;
    private final int numLabels;
    private final int featureSize;

    /**
     * @param architecture the transformers class, as {@code architectures[0]} names it
     * @param numChannels the channels of an input image
     * @param numLabels the classes of the head, 0 for none
     * @param featureSize the width of the pooled features
     */
    protected ImageClassifier(String architecture, int numChannels, int numLabels, int featureSize) {
        super(architecture);
        this.numChannels = numChannels;
        this.numLabels = numLabels;
        this.featureSize = featureSize;
    }

    /** @return the channels of an input image (3 for RGB) */
    public final int numChannels() {
        return numChannels;
    }

    /** @return the classes of the head (the width of the logits); 0 for a model without classifier */
    public final int numLabels() {
        return numLabels;
    }

    /** @return the width of {@link #features}, the pooled representation the classifier reads */
    public final int featureSize() {
        return featureSize;
    }

    /**
     * @param pixelValues float [b, c, h, w], normalized as the model's image processor does
     * @return [b, num_labels] (or [b, featureSize()] when num_labels is 0)
     * @throws ShapeException if the pixels are not floating [b, c, h, w] with the model's channels
     */
    public Tensor logits(Tensor pixelValues) {
        return classify(features(pixelValues));
    }

    /**
     * @param pixelValues float [b, c, h, w]
     * @return [b, featureSize()], the pooled features before the classifier
     * @throws ShapeException if the pixels do not fit
     */
    public Tensor features(Tensor pixelValues) {
        Objects.requireNonNull(pixelValues, "pixelValues");
        if (!pixelValues.dtype().isFloating() || pixelValues.rank() != 4 || pixelValues.length(1) != numChannels()
                || pixelValues.length(0) == 0) {
            throw new ShapeException(architecture() + ".logits", LanguageModel.shapes(pixelValues),
                    "pixel_values must be floating [batch, " + numChannels() + ", height, width], got "
                            + pixelValues.dtype().numpyName() + Arrays.toString(pixelValues.shape()));
        }
        return computeFeatures(pixelValues);
    }

    /** @return {@link #logits(Tensor)} */
    @Override
    public Tensor forward(Tensor pixelValues) {
        Objects.requireNonNull(pixelValues, "pixelValues");
        return logits(pixelValues);
    }

    /**
     * @param pixelValues float [b, c, h, w], checked
     * @return [b, featureSize()]
     */
    protected abstract Tensor computeFeatures(Tensor pixelValues);

    /**
     * @param features [b, featureSize()]
     * @return the logits [b, num_labels]
     */
    protected abstract Tensor classify(Tensor features);
}
