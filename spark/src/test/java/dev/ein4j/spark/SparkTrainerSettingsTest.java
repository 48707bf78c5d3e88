package dev.ein4j.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ein4j.error.EinopsException;
import dev.ein4j.nn.Functional;
import dev.ein4j.nn.optim.Sgd;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The builder's checks: null arguments, bad numbers, missing settings, and what a fit checks before it trains. */
class SparkTrainerSettingsTest {

    private static SparkTrainer.Builder complete() {
        return SparkTrainer.builder().model(TestModels::perceptron).optimizer(parameters -> new Sgd(parameters, 0.1))
                .loss(Functional::crossEntropy).onEpoch(report -> { });
    }

    @Test
    void everyReferenceParameterIsCheckedAtTheCall() throws Exception {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Class<?> type : List.of(SparkTrainer.class, SparkTrainer.Builder.class, EpochListener.class)) {
            for (Method method : type.getDeclaredMethods()) {
                if (!Modifier.isPublic(method.getModifiers()) || method.isSynthetic()) {
                    continue;
                }
                Parameter[] parameters = method.getParameters();
                for (int i = 0; i < parameters.length; i++) {
                    if (parameters[i].getType().isPrimitive()) {
                        continue;
                    }
                    checked++;
                    Object[] arguments = new Object[parameters.length];
                    for (int k = 0; k < parameters.length; k++) {
                        arguments[k] = k == i ? null : sample(parameters[k].getType());
                    }
                    Object receiver = Modifier.isStatic(method.getModifiers()) ? null
                            : type == SparkTrainer.class ? complete().build() : type == EpochListener.class
                            ? EpochListener.printingTo(System.err) : complete();
                    try {
                        method.invoke(receiver, arguments);
                        problems.add(method + " with " + parameters[i].getName() + " = null returned normally");
                    } catch (InvocationTargetException e) {
                        Throwable cause = e.getCause();
                        if (!(cause instanceof NullPointerException) || !parameters[i].getName().equals(cause.getMessage())) {
                            problems.add(method + " with " + parameters[i].getName() + " = null threw " + cause);
                        }
                    }
                }
            }
        }
        assertThat(checked).as("reference parameters checked").isGreaterThanOrEqualTo(12);
        assertThat(problems).isEmpty();
    }

    @Test
    void badNumbersAndMissingSettingsAreClearErrors() {
        SparkTrainer.Builder builder = SparkTrainer.builder();
        assertThatThrownBy(() -> builder.globalBatch(0)).isInstanceOf(EinopsException.class)
                .hasMessage("the global batch must be at least 1, got 0");
        assertThatThrownBy(() -> builder.epochs(-1)).isInstanceOf(EinopsException.class).hasMessageContaining("epochs");
        assertThatThrownBy(() -> builder.workers(0)).isInstanceOf(EinopsException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> builder.maxAttempts(0)).isInstanceOf(EinopsException.class).hasMessageContaining("attempts");
        assertThatThrownBy(() -> builder.inputColumn("x", 28, 0)).isInstanceOf(EinopsException.class)
                .hasMessage("shape lengths must be positive, got [28, 0]");
        assertThatThrownBy(() -> builder.inputColumn("x", 65536, 65536)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("more than 2^31 - 1 elements");
        assertThatThrownBy(() -> builder.peerTimeout(Duration.ZERO)).isInstanceOf(EinopsException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(builder::build).isInstanceOf(EinopsException.class)
                .hasMessage("SparkTrainer needs model(supplier) before it can be built");
        assertThatThrownBy(() -> SparkTrainer.builder().model(TestModels::perceptron).build())
                .hasMessage("SparkTrainer needs optimizer(factory) before it can be built");
    }

    @Test
    void aFitChecksTheWorkersAndTheRowsBeforeTraining() {
        LocalSpark.Teacher data = LocalSpark.teacher(40, TestModels.FEATURES, TestModels.CLASSES, 1);
        assertThatThrownBy(() -> complete().workers(3).fit(data.rows())).isInstanceOf(EinopsException.class)
                .hasMessageStartingWith("local mode here runs 2 tasks at once (master local[2]), but 3 workers are asked for");
        assertThatThrownBy(() -> complete().globalBatch(1).workers(2).fit(data.rows())).isInstanceOf(EinopsException.class)
                .hasMessage("a global batch of 1 cannot be split among 2 workers: each needs at least one example per step");
        assertThatThrownBy(() -> complete().globalBatch(64).fit(data.rows())).isInstanceOf(EinopsException.class)
                .hasMessage("the data set has 40 rows, fewer than one global batch of 64");
    }

    @Test
    void thePrintingListenerWritesOneLinePerEpochAndRestart() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        EpochListener listener = EpochListener.printingTo(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        listener.afterEpoch(new EpochReport(1, 2, 0.61234, 4992, 39, 12.34, 2, 1, "file:/tmp/epoch-0001.safetensors",
                Map::of));
        listener.retrying(2, 1, new SparkTrainingException("epoch 2, worker 1 of 2, step 7: boom", 2, 1, 7, null));
        listener.afterEpoch(new EpochReport(2, 2, 0.5, 4992, 39, 10.0, 2, 2, "file:/tmp/epoch-0002.safetensors", Map::of));
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "epoch 1/2: loss 0.6123, 4,992 examples in 12.3 s (2 workers)",
                "epoch 2, attempt 1 failed (epoch 2, worker 1 of 2, step 7: boom); restarting it from the checkpoint of epoch 1",
                "epoch 2/2: loss 0.5000, 4,992 examples in 10.0 s (2 workers), 2 attempts");
    }

    private static Object sample(Class<?> type) {
        if (type == int.class) {
            return 1;
        }
        if (type == String.class) {
            return "features";
        }
        if (type == int[].class) {
            return new int[] {64};
        }
        if (type == ModelSupplier.class) {
            return (ModelSupplier) TestModels::perceptron;
        }
        if (type == OptimizerFactory.class) {
            return (OptimizerFactory) parameters -> new Sgd(parameters, 0.1);
        }
        if (type == LossFunction.class) {
            return (LossFunction) Functional::crossEntropy;
        }
        if (type == EpochListener.class) {
            return (EpochListener) report -> { };
        }
        if (type == Duration.class) {
            return Duration.ofSeconds(1);
        }
        if (type == PrintStream.class) {
            return System.err;
        }
        if (type == EpochReport.class) {
            return new EpochReport(1, 1, 0, 1, 1, 1, 1, 1, "x", Map::of);
        }
        if (type == SparkTrainingException.class) {
            return new SparkTrainingException("x", 1, 0, 1, null);
        }
        throw new IllegalStateException("no sample for " + type);
    }
}
