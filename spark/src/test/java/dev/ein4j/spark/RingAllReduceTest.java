package dev.ein4j.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ring all-reduce between threads over loopback: sums, equal bits everywhere, a lost peer, a stranger. */
class RingAllReduceTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private final ExecutorService workers = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    @Test
    void everyWorkerGetsTheSumWithTheSameBits() throws Exception {
        for (int size : new int[] {1, 2, 3, 5}) {
            for (boolean single : new boolean[] {true, false}) {
                int length = 1000 + size; // chunks of unequal lengths
                double[][] vectors = new double[size][];
                double[] expected = new double[length];
                Random random = new Random(size);
                for (int rank = 0; rank < size; rank++) {
                    vectors[rank] = new double[length];
                    for (int i = 0; i < length; i++) {
                        vectors[rank][i] = single ? (float) random.nextGaussian() : random.nextGaussian();
                        expected[i] += vectors[rank][i];
                    }
                }
                double[][] sums = runRing(size, (rank, ring) -> {
                    ring.sum(vectors[rank], single);
                    ring.sum(vectors[rank], single); // a second call: the sum of the sums
                    return vectors[rank];
                });
                for (int rank = 0; rank < size; rank++) {
                    assertThat(sums[rank]).as("rank " + rank + " of " + size + " has the same bits as rank 0")
                            .containsExactly(sums[0]);
                }
                for (int i = 0; i < length; i++) {
                    double twice = expected[i] * size;
                    assertThat(sums[0][i]).as("element " + i + " of " + size + " workers")
                            .isCloseTo(twice, offset(single ? 1e-5 * size * size : 1e-12));
                }
            }
        }
    }

    @Test
    void aPeerThatClosesItsConnectionsIsALostPeer() throws Exception {
        int size = 3;
        CyclicBarrier joined = new CyclicBarrier(size);
        Gather gather = new Gather(size);
        List<Future<?>> results = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            int me = rank;
            results.add(workers.submit(() -> {
                try (RingAllReduce ring = RingAllReduce.join(me, size, "127.0.0.1", gather.of(me), () -> { }, TIMEOUT)) {
                    joined.await();
                    if (me == 1) {
                        return null; // closes its connections without taking part
                    }
                    ring.sum(new double[10], true);
                }
                return null;
            }));
        }
        results.get(1).get(30, TimeUnit.SECONDS);
        for (int rank : new int[] {0, 2}) {
            Future<?> result = results.get(rank);
            assertThatThrownBy(() -> result.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(PeerLostException.class)
                    .cause().hasMessageContaining("worker");
        }
    }

    @Test
    void aStrangerIsIgnoredAndAKilledTaskStopsWaiting() throws Exception {
        Gather gather = new Gather(2, 1);
        Future<?> lonely = workers.submit(() -> {
            AtomicBoolean killed = new AtomicBoolean();
            RingAllReduce.Liveness liveness = () -> {
                if (killed.get()) {
                    throw new IllegalStateException("killed");
                }
            };
            // rank 0 connects to rank 1's published address (a stranger's socket here) and waits for rank 1
            Function<String, String[]> allGather = message -> {
                String[] all = gather.of(0).apply(message);
                workers.submit(() -> {
                    try (Socket stranger = new Socket("127.0.0.1", Integer.parseInt(all[0].split(" ")[1]))) {
                        stranger.getOutputStream().write("hello".getBytes());
                        Thread.sleep(1200);
                    }
                    killed.set(true);
                    return null;
                });
                return all;
            };
            try (ServerSocket fakeNext = new ServerSocket(0, 5, InetAddress.getByName("127.0.0.1"))) {
                gather.publish(1, "127.0.0.1 " + fakeNext.getLocalPort() + " token");
                return RingAllReduce.join(0, 2, "127.0.0.1", allGather, liveness, TIMEOUT);
            }
        });
        assertThatThrownBy(() -> lonely.get(30, TimeUnit.SECONDS)).cause().isInstanceOf(IllegalStateException.class)
                .hasMessage("killed");
    }

    /** Runs one ring of {@code size} threads and returns what each computed. */
    private double[][] runRing(int size, RankAction action) throws Exception {
        Gather gather = new Gather(size);
        List<Future<double[]>> futures = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            int me = rank;
            futures.add(workers.submit(() -> {
                try (RingAllReduce ring = RingAllReduce.join(me, size, "127.0.0.1", gather.of(me), () -> { }, TIMEOUT)) {
                    return action.run(me, ring);
                }
            }));
        }
        double[][] results = new double[size][];
        for (int rank = 0; rank < size; rank++) {
            results[rank] = futures.get(rank).get(60, TimeUnit.SECONDS);
        }
        return results;
    }

    private interface RankAction {
        double[] run(int rank, RingAllReduce ring) throws IOException;
    }

    /** allGather between threads: each rank's message, then everyone's once all participants have arrived. */
    private static final class Gather {
        private final String[] messages;
        private final CyclicBarrier arrived;

        Gather(int size) {
            this(size, size);
        }

        Gather(int size, int participants) {
            messages = new String[size];
            arrived = new CyclicBarrier(participants);
        }

        /** Stands for a rank that takes no part (its message is known in advance). */
        void publish(int rank, String message) {
            messages[rank] = message;
        }

        Function<String, String[]> of(int rank) {
            return message -> {
                messages[rank] = message;
                try {
                    arrived.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                    throw new IllegalStateException(e);
                }
                return messages.clone();
            };
        }
    }
}
