package dev.ein4j.spark;

import dev.ein4j.error.EinopsException;
import dev.ein4j.nn.Module;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;
import scala.reflect.ClassTag$;

/**
 * One {@link SparkTrainer#fit} on the driver: checks the columns, decodes and caches the examples,
 * writes the initial checkpoint, runs each epoch as a job (again from the previous checkpoint when an
 * attempt fails and another can help), reports each epoch, and reads the trained state from the last
 * checkpoint. The driver handles only settings, file locations and a few numbers per worker.
 */
final class TrainingRun {

    private final SparkTrainer.Builder settings;
    private final String run = UUID.randomUUID().toString();

    TrainingRun(SparkTrainer.Builder settings) {
        this.settings = settings;
    }

    Map<String, Tensor> fit(Dataset<Row> dataset) {
        SparkContext context = dataset.sparkSession().sparkContext();
        JavaSparkContext spark = JavaSparkContext.fromSparkContext(context);
        ExampleColumns columns = ExampleColumns.resolve(dataset.schema(), settings.inputColumn, settings.inputShape,
                settings.targetColumn, settings.targetShape, () -> firstRow(selected(dataset, settings.inputColumn,
                        settings.targetColumn)));
        int workers = settings.workers > 0 ? settings.workers : spark.defaultParallelism();
        checkWorkers(context, workers);
        boolean temporary = settings.checkpointDirectory == null;
        CheckpointStore store = CheckpointStore.create(temporary ? defaultDirectory(context) : settings.checkpointDirectory,
                context.hadoopConfiguration());
        JavaRDD<Example> examples = selected(dataset, columns.input(), columns.target()).javaRDD().zipWithIndex()
                .map(row -> columns.decodeOrReport(row._1(), row._2())).persist(StorageLevel.MEMORY_AND_DISK());
        try {
            long count = decodeAll(examples);
            if (count < settings.globalBatch) {
                throw new EinopsException("the data set has " + count + " rows, fewer than one global batch of "
                        + settings.globalBatch);
            }
            TrainingSpec spec = new TrainingSpec(settings.model, settings.optimizer, settings.loss, columns, store, run,
                    settings.peerTimeout);
            writeInitialCheckpoint(store);
            BatchSplit split = new BatchSplit(settings.globalBatch, workers);
            for (int epoch = 1; epoch <= settings.epochs; epoch++) {
                settings.listener.afterEpoch(epochWithRetries(spark, examples, spec, split, count, epoch));
            }
            return Replica.entries(store.read(settings.epochs), Replica.MODEL);
        } finally {
            if (!context.isStopped()) {
                examples.unpersist(false);
            }
            if (temporary) {
                store.deleteDirectory();
            }
        }
    }

    private EpochReport epochWithRetries(JavaSparkContext spark, JavaRDD<Example> examples, TrainingSpec spec,
            BatchSplit split, long count, int epoch) {
        EpochPlan plan = EpochPlan.create(count, split, settings.shuffle, settings.seed, epoch);
        for (int attempt = 1; ; attempt++) {
            long start = System.nanoTime();
            try {
                List<EpochResult> results = runEpoch(spark, examples, spec, plan, epoch, attempt);
                double seconds = (System.nanoTime() - start) / 1e9;
                return report(results, spec.store(), plan, epoch, attempt, seconds);
            } catch (Exception failure) { // SparkException is checked but undeclared by the Scala API
                EpochFailures.Diagnosis diagnosis = EpochFailures.diagnose(failure, spec.store(), run, epoch, attempt,
                        split.workers());
                if (!diagnosis.retryable() || spark.sc().isStopped()) {
                    throw diagnosis.failure();
                }
                if (attempt >= settings.maxAttempts) {
                    SparkTrainingException last = diagnosis.failure();
                    throw new SparkTrainingException("epoch " + epoch + " failed on all " + attempt + " attempts; the last: "
                            + last.getMessage(), epoch, last.worker(), last.step(), last);
                }
                settings.listener.retrying(epoch, attempt, diagnosis.failure());
            }
        }
    }

    private List<EpochResult> runEpoch(JavaSparkContext spark, JavaRDD<Example> examples, TrainingSpec spec, EpochPlan plan,
            int epoch, int attempt) {
        Broadcast<EpochPlan> shared = spark.broadcast(plan);
        spark.setJobDescription("ein4j-spark epoch " + epoch + "/" + settings.epochs + ", attempt " + attempt);
        try {
            JavaPairRDD<Long, Example> placed = examples.flatMapToPair(example -> placed(shared.value(), example))
                    .repartitionAndSortWithinPartitions(new WorkerPartitioner(plan.split()));
            RDD<EpochResult> results = placed.rdd().barrier().mapPartitions(
                    new WorkerEpoch(spec, epoch, attempt, plan.steps(), plan.split()), false,
                    ClassTag$.MODULE$.apply(EpochResult.class));
            return results.toJavaRDD().collect();
        } finally {
            spark.setJobDescription(null);
            shared.unpersist(false);
        }
    }

    private static Iterator<Tuple2<Long, Example>> placed(EpochPlan plan, Example example) {
        long position = plan.position(example.index());
        return position < 0 ? Collections.emptyIterator() : List.of(new Tuple2<>(position, example)).iterator();
    }

    private EpochReport report(List<EpochResult> results, CheckpointStore store, EpochPlan plan, int epoch, int attempt,
            double seconds) {
        double lossSum = 0;
        long trained = 0;
        for (EpochResult result : results) {
            lossSum += result.lossSum();
            trained += result.examples();
        }
        return new EpochReport(epoch, settings.epochs, lossSum / trained, trained, plan.steps(), seconds,
                plan.split().workers(), attempt, store.location(epoch), () -> Replica.entries(store.read(epoch), Replica.MODEL));
    }

    /** Decodes and caches every row now, so that a bad row fails here, before training, and counts them. */
    private static long decodeAll(JavaRDD<Example> examples) {
        List<Example> unreadable = sparkCall("reading the examples",
                () -> examples.filter(example -> example.problem() != null).take(1));
        if (!unreadable.isEmpty()) {
            RowFormatException problem = unreadable.get(0).problem();
            throw new RowFormatException(problem.getMessage(), problem.row(), problem.column());
        }
        return sparkCall("counting the examples", examples::count);
    }

    /** Runs a Spark job of the fit's preparation; its failure is a {@link SparkTrainingException} saying what failed. */
    private static <T> T sparkCall(String what, Supplier<T> job) {
        try {
            return job.get();
        } catch (Exception failure) { // SparkException is checked but undeclared by the Scala API
            throw new SparkTrainingException(what + " failed: " + EpochFailures.firstLine(failure.getMessage()), 0, -1, 0,
                    failure);
        }
    }

    @SuppressWarnings("try") // a tensor scope is opened for what its close releases
    private void writeInitialCheckpoint(CheckpointStore store) {
        try (TensorScope scope = Tensor.scope()) {
            Module model = settings.model.get();
            store.write(0, Replica.checkpoint(model, null), Map.of("format", "ein4j-spark/1", "epoch", "0"));
        }
    }

    /** The two columns, in this order, by their exact names (a dot in a name is not a field access). */
    private static Dataset<Row> selected(Dataset<Row> dataset, String input, String target) {
        return dataset.select(functions.col(quoted(input)), functions.col(quoted(target)));
    }

    private static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    private static Row firstRow(Dataset<Row> dataset) {
        List<Row> first = sparkCall("reading the first row", () -> dataset.limit(1).collectAsList());
        return first.isEmpty() ? null : first.get(0);
    }

    private void checkWorkers(SparkContext context, int workers) {
        if (settings.globalBatch < workers) {
            throw new EinopsException("a global batch of " + settings.globalBatch + " cannot be split among " + workers
                    + " workers: each needs at least one example per step");
        }
        if (context.isLocal() && workers > context.defaultParallelism()) {
            throw new EinopsException("local mode here runs " + context.defaultParallelism() + " tasks at once (master "
                    + context.master() + "), but " + workers + " workers are asked for: a barrier stage starts all its "
                    + "tasks together");
        }
    }

    private String defaultDirectory(SparkContext context) {
        if (context.getCheckpointDir().isDefined()) {
            return context.getCheckpointDir().get() + "/ein4j-" + run;
        }
        if (!context.isLocal()) {
            throw new EinopsException("set SparkTrainer.builder().checkpointDirectory(...) to a directory that the driver "
                    + "and every executor reach (hdfs://..., s3a://..., a shared mount), or the SparkContext's checkpoint "
                    + "directory: the master " + context.master() + " is not local");
        }
        try {
            return Files.createTempDirectory("ein4j-spark-").toUri().toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary checkpoint directory: " + e.getMessage(), e);
        }
    }
}
