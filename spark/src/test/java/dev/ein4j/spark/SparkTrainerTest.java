package dev.ein4j.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ein4j.nn.Functional;
import dev.ein4j.nn.Module;
import dev.ein4j.nn.optim.Optimizer;
import dev.ein4j.nn.optim.Sgd;
import dev.ein4j.tensor.Tensor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * Two workers with a global batch of 128 train the same parameters as one process with batches of
 * 128, and the driver receives a few numbers per task, never a gradient.
 */
class SparkTrainerTest {

    private static final int GLOBAL_BATCH = 128;
    private static final int EPOCHS = 2;
    private static final long SEED = 3;
    /** 10 steps per epoch, 20 in all, and a partial batch of 32 dropped each epoch. */
    private static final LocalSpark.Teacher DATA = LocalSpark.teacher(10 * GLOBAL_BATCH + 32, TestModels.FEATURES,
            TestModels.CLASSES, 21);

    private static OptimizerFactory sgd() {
        return parameters -> new Sgd(parameters, 0.05).momentum(0.9);
    }

    @Test
    void twoWorkersTrainTheParametersOfOneProcessAndTheDriverCollectsNoGradient() {
        Dataset<Row> rows = DATA.rows();
        List<EpochReport> reports = new ArrayList<>();
        TaskResults results = new TaskResults();
        LocalSpark.session().sparkContext().addSparkListener(results);
        Map<String, Tensor> trained;
        try {
            trained = SparkTrainer.builder().model(TestModels::perceptron).optimizer(sgd()).loss(Functional::crossEntropy)
                    .globalBatch(GLOBAL_BATCH).epochs(EPOCHS).workers(2).seed(SEED).onEpoch(reports::add).fit(rows);
        } finally {
            LocalSpark.session().sparkContext().removeSparkListener(results);
        }

        Module reference = TestModels.perceptron();
        Map<String, float[]> initial = TestModels.values(reference.stateDict());
        Optimizer optimizer = sgd().create(reference.parameters());
        List<Double> losses = TestModels.trainInOneProcess(reference, optimizer, DATA, GLOBAL_BATCH, EPOCHS, SEED);

        Map<String, float[]> expected = TestModels.values(reference.stateDict());
        assertThat(trained).containsOnlyKeys(expected.keySet());
        double largestMove = 0;
        for (Map.Entry<String, float[]> entry : expected.entrySet()) {
            float[] actual = trained.get(entry.getKey()).toFloatArray();
            float[] wanted = entry.getValue();
            for (int i = 0; i < wanted.length; i++) {
                assertThat(actual[i]).as(entry.getKey() + "[" + i + "]").isCloseTo(wanted[i], within(2e-5f + 1e-4f * Math.abs(wanted[i])));
                largestMove = Math.max(largestMove, Math.abs(wanted[i] - initial.get(entry.getKey())[i]));
            }
        }
        assertThat(largestMove).as("the parameters moved: the comparison is not vacuous").isGreaterThan(0.05);

        assertThat(reports).hasSize(EPOCHS);
        for (EpochReport report : reports) {
            assertThat(report.workers()).isEqualTo(2);
            assertThat(report.steps()).isEqualTo(10);
            assertThat(report.examples()).isEqualTo(10L * GLOBAL_BATCH);
            assertThat(report.attempts()).isEqualTo(1);
            assertThat(report.meanLoss()).as("epoch " + report.epoch() + "'s loss").isCloseTo(losses.get(report.epoch() - 1),
                    within(1e-4));
        }
        assertThat(losses.get(1)).as("the loss fell").isLessThan(losses.get(0));

        // the driver's share of the traffic: what every task returned to it
        long gradientBytes = 4L * reference.parameterCount();
        assertThat(results.sizes).as("results of the epochs' tasks").isNotEmpty();
        assertThat(results.sizes.stream().mapToLong(Long::longValue).max().orElseThrow())
                .as("the largest task result, against one gradient of " + gradientBytes + " bytes")
                .isLessThan(gradientBytes / 8);
        assertThat(results.sizes.stream().mapToLong(Long::longValue).sum())
                .as("all task results together, against one gradient").isLessThan(gradientBytes);
    }

    @Test
    void theTaskResultListenerSeesAResultOfAGradientsSize() {
        // the measurement above can fail: collecting one gradient's worth of floats shows in it
        TaskResults results = new TaskResults();
        LocalSpark.session().sparkContext().addSparkListener(results);
        try {
            int floats = (int) TestModels.perceptron().parameterCount();
            List<Integer> one = List.of(0);
            LocalSpark.session().createDataset(one, org.apache.spark.sql.Encoders.INT()).javaRDD()
                    .map(x -> new float[floats]).collect();
        } finally {
            LocalSpark.session().sparkContext().removeSparkListener(results);
        }
        assertThat(results.sizes.stream().mapToLong(Long::longValue).max().orElseThrow())
                .isGreaterThanOrEqualTo(4L * TestModels.perceptron().parameterCount());
    }

    @Test
    void replicasThatDriftApartAreDetectedAtTheEndOfTheEpoch() {
        assertThatThrownBy(() -> SparkTrainer.builder().model(DriftingModel::new).optimizer(sgd())
                .loss(Functional::crossEntropy).globalBatch(GLOBAL_BATCH).workers(2).onEpoch(report -> { })
                .fit(DATA.rows()))
                .isInstanceOf(SparkTrainingException.class)
                .hasMessageMatching("epoch 1, worker [01] of 2: after epoch 1 worker [01] holds other parameters than worker "
                        + "[01] \\(digests [0-9a-f]+ and [0-9a-f]+\\): the model or the backend does not compute the same "
                        + "numbers from the same inputs on every worker");
    }

    /** The perceptron with an int32 buffer that each replica sets from its own inputs: never averaged, so it drifts. */
    static final class DriftingModel extends Module {
        private final Module perceptron = registerModule("perceptron", TestModels.perceptron());
        private final Tensor seen = registerBuffer("seen", Tensor.of(new int[] {0}, 1));

        @Override
        public Tensor forward(Tensor x) {
            seen.assign(Tensor.of(new int[] {(int) (1000 * x.sum().item())}, 1));
            return perceptron.forward(x);
        }
    }

    /** Records the size of every result task's result as the driver received it. */
    static final class TaskResults extends SparkListener {
        final List<Long> sizes = new CopyOnWriteArrayList<>();

        @Override
        public void onTaskEnd(SparkListenerTaskEnd end) {
            if (end.taskMetrics() != null && end.taskType().equals("ResultTask")) {
                sizes.add(end.taskMetrics().resultSize());
            }
        }
    }
}
