package dev.ein4j.spark;

import dev.ein4j.error.EinopsException;
import dev.ein4j.tensor.Tensor;
import dev.ein4j.tensor.TensorScope;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.TaskKilledException;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractFunction1;

/**
 * One worker's epoch, run as a task of the epoch's barrier stage on its partition: the examples this
 * worker trains on, sorted by position in the epoch ({@link EpochPlan}), so that each run of
 * {@code share} consecutive examples is its part of the next global batch. The worker joins the
 * ring, restores its replica from the previous epoch's checkpoint, runs every step, and worker 0
 * writes this epoch's checkpoint; a final exchange of the replicas' digests over the ring checks that
 * all hold the same parameters and keeps every worker in the stage until the checkpoint exists.
 *
 * <p>A failure is reported to the driver ({@link FailureReport}) and rethrown with the epoch, the
 * worker and the step in its message; a kill by Spark (another worker failed) is rethrown as it is.
 */
final class WorkerEpoch extends AbstractFunction1<scala.collection.Iterator<Tuple2<Long, Example>>,
        scala.collection.Iterator<EpochResult>> implements Serializable {

    private static final long serialVersionUID = 1L;

    private final TrainingSpec spec;
    private final int epoch;
    private final int attempt;
    private final int steps;
    private final BatchSplit split;

    /**
     * @param spec what to train and where checkpoints are
     * @param epoch the epoch, from 1
     * @param attempt its attempt, from 1
     * @param steps the global batches of the epoch
     * @param split the split of each batch among the workers
     */
    WorkerEpoch(TrainingSpec spec, int epoch, int attempt, int steps, BatchSplit split) {
        this.spec = spec;
        this.epoch = epoch;
        this.attempt = attempt;
        this.steps = steps;
        this.split = split;
    }

    @Override
    public scala.collection.Iterator<EpochResult> apply(scala.collection.Iterator<Tuple2<Long, Example>> rows) {
        BarrierTaskContext context = BarrierTaskContext.get();
        int rank = context.partitionId();
        int[] step = {0};
        try {
            EpochResult result = train(context, rank, CollectionConverters.asJava(rows), step);
            return CollectionConverters.asScala(List.of(result).iterator());
        } catch (TaskKilledException | SparkTrainingException killedOrReported) {
            throw killedOrReported;
        } catch (Exception | Error failure) { // joining the ring, or closing it
            throw reported(rank, step[0], failure);
        }
    }

    @SuppressWarnings("try") // a tensor scope is opened for what its close releases
    private EpochResult train(BarrierTaskContext context, int rank, Iterator<Tuple2<Long, Example>> rows, int[] step)
            throws Exception {
        // the replica's parameters, buffers and the checkpoint read are released when the epoch ends
        try (TensorScope epochTensors = Tensor.scope();
                RingAllReduce ring = RingAllReduce.join(rank, split.workers(), host(context, rank),
                        message -> rendezvous(context, message), context::killTaskIfInterrupted, spec.peerTimeout())) {
            // the report is written before the ring closes: a peer sees the connection drop only after it,
            // so the driver never finds the peer's 'lost' report without the cause beside it
            try {
                Replica replica = Replica.restore(spec, spec.store().read(epoch - 1));
                int share = split.share(rank);
                double weight = share / (double) split.globalBatch();
                double lossSum = 0;
                List<Example> batch = new ArrayList<>(share);
                for (step[0] = 1; step[0] <= steps; step[0]++) {
                    context.killTaskIfInterrupted();
                    batch.clear();
                    for (int i = 0; i < share; i++) {
                        if (!rows.hasNext()) {
                            throw new IllegalStateException("worker " + rank + " ran out of examples at step " + step[0]
                                    + " of " + steps + ": the data set changed while the epoch was planned");
                        }
                        batch.add(rows.next()._2());
                    }
                    lossSum += replica.step(batch, spec.columns(), weight, ring) * share;
                }
                step[0] = 0;
                if (rank == 0) {
                    spec.store().write(epoch, replica.checkpoint(), Map.of("format", "ein4j-spark/1", "epoch",
                            Integer.toString(epoch), "workers", Integer.toString(split.workers()), "global_batch",
                            Integer.toString(split.globalBatch())));
                }
                // after worker 0 has written the checkpoint: no worker finishes before it exists
                checkSameParameters(rank, replica.digest(), ring);
                return new EpochResult(rank, lossSum, (long) steps * share, replica.exchangedNumbers());
            } catch (TaskKilledException killed) {
                throw killed;
            } catch (Exception | Error failure) {
                throw reported(rank, step[0], failure);
            }
        }
    }

    /**
     * Every worker's 64-bit digest, passed around the ring as two exact 32-bit halves in its own slots
     * of a vector summed over the workers (an allGather would cost a second: Spark polls it once a second).
     */
    private void checkSameParameters(int rank, long digest, RingAllReduce ring) throws IOException {
        double[] digests = new double[2 * split.workers()];
        digests[2 * rank] = digest >>> 32;
        digests[2 * rank + 1] = digest & 0xFFFFFFFFL;
        ring.sum(digests, false);
        for (int other = 0; other < split.workers(); other++) {
            long theirs = ((long) digests[2 * other] << 32) | (long) digests[2 * other + 1];
            if (theirs != digest) {
                throw new EinopsException("after epoch " + epoch + " worker " + other + " holds other parameters than worker "
                        + rank + " (digests " + Long.toHexString(theirs) + " and " + Long.toHexString(digest) + "): the model "
                        + "or the backend does not compute the same numbers from the same inputs on every worker");
            }
        }
    }

    /** The barrier's allGather; its failure (another worker failed first) is a lost peer. */
    private static String[] rendezvous(BarrierTaskContext context, String message) {
        try {
            return context.allGather(message);
        } catch (TaskKilledException killed) {
            throw killed;
        } catch (RuntimeException e) {
            throw new PeerRendezvousException(e);
        }
    }

    private static String host(BarrierTaskContext context, int rank) {
        String address = context.getTaskInfos()[rank].address(); // "host:port" of this executor
        String host = address.substring(0, address.lastIndexOf(':'));
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    private SparkTrainingException reported(int rank, int step, Throwable failure) {
        Throwable reason = failure instanceof PeerRendezvousException ? failure.getCause() : failure;
        boolean primary = !(failure instanceof PeerLostException || failure instanceof PeerRendezvousException);
        boolean retryable = !(reason instanceof EinopsException);
        String where = "epoch " + epoch + ", worker " + rank + " of " + split.workers() + (step > 0 ? ", step " + step : "");
        String what = reason instanceof EinopsException ? reason.getMessage() : reason.toString();
        String message = where + ": " + what;
        try {
            spec.store().writeReport(FailureReport.fileName(spec.run(), epoch, attempt, rank),
                    new FailureReport(epoch, attempt, rank, step, primary, retryable, message).toBytes());
        } catch (RuntimeException unwritable) {
            failure.addSuppressed(unwritable); // the driver falls back on Spark's own message
        }
        return new SparkTrainingException(message, epoch, rank, step, failure);
    }

    /** The barrier's allGather failed: another worker failed or was lost first. */
    private static final class PeerRendezvousException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PeerRendezvousException(RuntimeException cause) {
            super("the barrier rendezvous failed: " + cause.getMessage(), cause);
        }
    }
}
