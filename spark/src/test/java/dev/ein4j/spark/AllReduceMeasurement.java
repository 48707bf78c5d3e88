package dev.ein4j.spark;

import dev.ein4j.examples.fashion.FashionCnn;
import dev.ein4j.nn.optim.Adam;
import dev.ein4j.tensor.Generator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.sql.SparkSession;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;

/**
 * Not a test: the measurement behind {@link SparkTrainer}'s choice of communication. In one barrier
 * stage of two local tasks, each sums a float32 vector of the flagship CNN's gradient size (and of
 * smaller ones) with the other, repeatedly, in two ways: through {@code BarrierTaskContext.allGather}
 * (each task's bytes as Base64 to the driver's barrier coordinator and back to every task, then
 * summed) and through {@link RingAllReduce}; it prints the median milliseconds of a sum for each.
 *
 * <pre>
 * mvn -B -q -pl spark test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt
 * java --add-modules jdk.incubator.vector $(spark opens: see the pom's spark.opens) \
 *      -cp spark/target/test-classes:spark/target/classes:$(cat spark/target/test-classpath.txt) \
 *      dev.ein4j.spark.AllReduceMeasurement [ROUNDS]
 * </pre>
 */
public final class AllReduceMeasurement {

    private AllReduceMeasurement() {
    }

    /** @param args the rounds per size (default 30) */
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        // what one step of the flagship exchanges: its parameters' gradients, a flag each, its batch-norm buffers
        ModelSupplier cnn = () -> new FashionCnn(32, 64, 128, new Generator(0));
        Replica flagship = Replica.restore(new TrainingSpec(cnn, parameters -> new Adam(parameters, 1e-3), null, null, null,
                null, null), Replica.checkpoint(cnn.get(), null));
        int length = flagship.exchangedNumbers();
        SparkSession spark = LocalSpark.session();
        List<String> lines = spark.sparkContext().parallelize(CollectionConverters.asScala(List.of(0, 1)).toSeq(), 2,
                ClassTag$.MODULE$.apply(Integer.class)).barrier().mapPartitions(new Measure(rounds, length), false,
                ClassTag$.MODULE$.apply(String.class)).toJavaRDD().collect();
        lines.forEach(System.out::println);
        spark.stop();
    }

    /** Both tasks time both ways; task 0 reports. */
    private static final class Measure extends AbstractFunction1<scala.collection.Iterator<Integer>,
            scala.collection.Iterator<String>> implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final int rounds;
        private final int flagship;

        Measure(int rounds, int flagship) {
            this.rounds = rounds;
            this.flagship = flagship;
        }

        @Override
        public scala.collection.Iterator<String> apply(scala.collection.Iterator<Integer> ignored) {
            BarrierTaskContext context = BarrierTaskContext.get();
            int rank = context.partitionId();
            List<String> report = new ArrayList<>();
            try (RingAllReduce ring = RingAllReduce.join(rank, 2, "127.0.0.1", context::allGather,
                    context::killTaskIfInterrupted, Duration.ofMinutes(2))) {
                for (int length : new int[] {flagship, 100_000, 10_000}) {
                    double[] values = new double[length];
                    Arrays.fill(values, rank + 1);
                    double[] gather = new double[rounds];
                    double[] sockets = new double[rounds];
                    for (int round = 0; round < rounds; round++) {
                        long start = System.nanoTime();
                        double[] summed = viaAllGather(context, values);
                        gather[round] = (System.nanoTime() - start) / 1e6;
                        check(summed, 3);
                        double[] copy = values.clone();
                        context.barrier();
                        start = System.nanoTime();
                        ring.sum(copy, true);
                        sockets[round] = (System.nanoTime() - start) / 1e6;
                        check(copy, 3);
                    }
                    report.add(String.format(Locale.ROOT, "%,d float32 (%.2f MB): allGather %.2f ms, ring %.2f ms (medians of %d)",
                            length, length * 4 / 1e6, median(gather), median(sockets), rounds));
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return CollectionConverters.asScala((rank == 0 ? report : List.<String>of()).iterator());
        }

        private static double[] viaAllGather(BarrierTaskContext context, double[] values) {
            ByteBuffer bytes = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
            for (double value : values) {
                bytes.putFloat((float) value);
            }
            String[] all = context.allGather(Base64.getEncoder().encodeToString(bytes.array()));
            double[] sum = new double[values.length];
            for (String message : all) {
                ByteBuffer other = ByteBuffer.wrap(Base64.getDecoder().decode(message)).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < sum.length; i++) {
                    sum[i] += other.getFloat();
                }
            }
            return sum;
        }

        private static void check(double[] sum, double expected) {
            if (sum[0] != expected || sum[sum.length - 1] != expected) {
                throw new IllegalStateException("wrong sum " + sum[0]);
            }
        }

        private static double median(double[] times) {
            double[] sorted = times.clone();
            Arrays.sort(sorted);
            return sorted[sorted.length / 2];
        }
    }
}
