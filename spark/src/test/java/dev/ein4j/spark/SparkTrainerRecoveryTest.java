package dev.ein4j.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ein4j.nn.Functional;
import dev.ein4j.nn.optim.Adam;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * A worker's task that throws mid-epoch makes the epoch start again from the previous checkpoint
 * (parameters and Adam's moments), and training ends with the parameters of a run that never
 * failed; failures that cannot go away are reported at once, with the epoch, worker and step.
 */
class SparkTrainerRecoveryTest {

    private static final int GLOBAL_BATCH = 64;
    private static final int STEPS = 6;
    private static final LocalSpark.Teacher DATA = LocalSpark.teacher(STEPS * GLOBAL_BATCH, TestModels.FEATURES,
            TestModels.CLASSES, 5);

    /** Loss calls in this JVM (local mode runs the tasks here), and the call that throws, if any. */
    private static final AtomicInteger CALLS = new AtomicInteger();
    private static volatile int failingCall = -1;

    private static Tensor failingOnce(Tensor output, Tensor target) {
        if (CALLS.incrementAndGet() == failingCall) {
            throw new IllegalStateException("injected failure at loss call " + failingCall);
        }
        return Functional.crossEntropy(output, target);
    }

    private static Tensor alwaysFailing(Tensor output, Tensor target) {
        throw new IllegalStateException("injected failure, every time");
    }

    private static SparkTrainer.Builder trainer(LossFunction loss, List<EpochReport> reports, List<SparkTrainingException> retries) {
        return SparkTrainer.builder().model(TestModels::perceptron).optimizer(parameters -> new Adam(parameters, 1e-2))
                .loss(loss).globalBatch(GLOBAL_BATCH).epochs(2).workers(2).seed(9).onEpoch(new EpochListener() {
                    @Override
                    public void afterEpoch(EpochReport report) {
                        reports.add(report);
                    }

                    @Override
                    public void retrying(int epoch, int failedAttempt, SparkTrainingException failure) {
                        assertThat(failedAttempt).isEqualTo(retries.size() + 1);
                        retries.add(failure);
                    }
                });
    }

    @Test
    void aTaskFailingMidEpochRestartsTheEpochFromItsCheckpointAndTrainingFinishes() {
        Dataset<Row> rows = DATA.rows();
        Map<String, Tensor> uninterrupted = trainer(Functional::crossEntropy, new ArrayList<>(), new ArrayList<>()).fit(rows);

        CALLS.set(0);
        failingCall = 2 * STEPS + 7; // epoch 2 makes calls 13 to 24 (two workers, six steps): one worker, step 3 or 4
        List<EpochReport> reports = new ArrayList<>();
        List<SparkTrainingException> retries = new ArrayList<>();
        Map<String, Tensor> recovered;
        try {
            recovered = trainer(SparkTrainerRecoveryTest::failingOnce, reports, retries).fit(rows);
        } finally {
            failingCall = -1;
        }

        assertThat(retries).singleElement().satisfies(failure -> {
            assertThat(failure.epoch()).isEqualTo(2);
            assertThat(failure.worker()).isIn(0, 1);
            assertThat(failure.step()).isIn(3, 4);
            assertThat(failure).hasMessageStartingWith("epoch 2, worker " + failure.worker() + " of 2, step " + failure.step())
                    .hasMessageContaining("IllegalStateException: injected failure at loss call 19");
        });
        assertThat(reports).extracting(EpochReport::attempts).containsExactly(1, 2);
        assertThat(CALLS.get()).as("epoch 2 ran again in full").isGreaterThan(4 * STEPS + 2);
        Map<String, float[]> expected = TestModels.values(uninterrupted);
        for (Map.Entry<String, float[]> entry : expected.entrySet()) {
            float[] actual = recovered.get(entry.getKey()).toFloatArray();
            for (int i = 0; i < actual.length; i++) {
                assertThat(actual[i]).as(entry.getKey() + "[" + i + "]").isCloseTo(entry.getValue()[i], within(1e-6f));
            }
        }
    }

    @Test
    void anEpochFailingOnEveryAttemptIsReportedWithTheLastFailure() {
        List<SparkTrainingException> retries = new ArrayList<>();
        List<EpochReport> reports = new ArrayList<>();
        assertThatThrownBy(() -> trainer(SparkTrainerRecoveryTest::alwaysFailing, reports, retries).maxAttempts(2)
                .fit(DATA.rows()))
                .isInstanceOf(SparkTrainingException.class)
                .hasMessageStartingWith("epoch 1 failed on all 2 attempts; the last: epoch 1, worker ")
                .hasMessageContaining(", step 1: java.lang.IllegalStateException: injected failure, every time")
                .satisfies(failure -> assertThat(((SparkTrainingException) failure).epoch()).isEqualTo(1));
        assertThat(retries).hasSize(1);
        assertThat(reports).isEmpty();
    }

    @Test
    void aLossOfTheWrongShapeFailsAtOnceNamingTheWorkerAndTheStep() {
        List<SparkTrainingException> retries = new ArrayList<>();
        assertThatThrownBy(() -> trainer((output, target) -> output, new ArrayList<>(), retries).fit(DATA.rows()))
                .isInstanceOf(SparkTrainingException.class)
                .hasMessageMatching("epoch 1, worker [01] of 2, step 1: the loss function must return one number, the mean "
                        + "loss of the batch; it returned a tensor of shape \\[32, 10\\]")
                .satisfies(failure -> {
                    SparkTrainingException training = (SparkTrainingException) failure;
                    assertThat(training.step()).isEqualTo(1);
                    assertThat(training.worker()).isIn(0, 1);
                    assertThat(training.getCause()).as("Spark's exception, kept for diagnosis").isNotNull();
                });
        assertThat(retries).as("the library's own errors are not retried: they would fail again").isEmpty();
    }
}
