package dev.ein4j.spark;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Sums a vector across the W workers of a barrier stage over TCP, every worker ending with the same
 * bits: a ring all-reduce. Worker r sends to r + 1 and receives from r − 1 (mod W); the vector is cut
 * into W chunks, W − 1 rounds of reduce-scatter leave each worker with one chunk summed over all, and
 * W − 1 rounds of all-gather pass the sums around. Each worker sends and receives 2·(W − 1)/W of the
 * vector per call, whatever W is, and no byte passes through the driver.
 *
 * <p>The rendezvous exchanges "host port token" through the barrier's {@code allGather} (a few bytes
 * per worker through the driver); a connection is accepted only from the ring predecessor presenting
 * the acceptor's token. Reads wake every half second to ask whether the task is still wanted (Spark
 * kills the other tasks of a barrier stage when one fails), and a peer that closes its connection or
 * sends nothing for the timeout is a {@link PeerLostException}.
 *
 * <p>Sums are computed in double precision. With {@code singlePrecision} the wire carries float32 and
 * each finished sum is rounded to float32 on its owner too, so the copies on all workers are equal.
 */
final class RingAllReduce implements AutoCloseable {

    private static final String GREETING = "ein4j-ring/1";
    private static final int WAKE_MILLIS = 500;

    /** Asks whether the caller is still wanted; throws (Spark's TaskKilledException) if not. */
    interface Liveness {
        /** Throws if the task was killed. */
        void check();
    }

    private final int rank;
    private final int size;
    private final Socket toNext;
    private final Socket fromPrevious;
    private final DataOutputStream out;
    private final InputStream in;
    private final ExecutorService sender;
    private final Liveness liveness;
    private final long timeoutNanos;
    private int calls;
    private byte[] sendBuffer = new byte[0];
    private byte[] receiveBuffer = new byte[0];

    private RingAllReduce(int rank, int size, Socket toNext, Socket fromPrevious, Liveness liveness, Duration timeout)
            throws IOException {
        this.rank = rank;
        this.size = size;
        this.toNext = toNext;
        this.fromPrevious = fromPrevious;
        this.liveness = liveness;
        this.timeoutNanos = timeout.toNanos();
        this.out = toNext == null ? null : new DataOutputStream(new BufferedOutputStream(toNext.getOutputStream(), 1 << 16));
        this.in = fromPrevious == null ? null : fromPrevious.getInputStream();
        this.sender = size == 1 ? null : Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ein4j-ring-send-" + rank);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Opens this worker's two connections. Every worker of the stage must call it.
     *
     * @param rank this worker, in [0, size)
     * @param size W
     * @param host the address to listen on, which the other workers can reach
     * @param allGather the barrier's allGather: this worker's message in, every worker's out, by rank
     * @param liveness asked while waiting
     * @param timeout how long to wait for a peer
     * @return the ring
     * @throws IOException if a peer cannot be reached in time
     */
    static RingAllReduce join(int rank, int size, String host, Function<String, String[]> allGather, Liveness liveness,
            Duration timeout) throws IOException {
        if (size == 1) {
            return new RingAllReduce(rank, size, null, null, liveness, timeout);
        }
        String[] peers;
        Socket toNext = null;
        Socket fromPrevious = null;
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getByName(host))) {
            String token = UUID.randomUUID().toString();
            peers = allGather.apply(host + " " + server.getLocalPort() + " " + token);
            try {
                int next = (rank + 1) % size;
                String[] nextPeer = peers[next].split(" ");
                toNext = new Socket();
                toNext.setTcpNoDelay(true);
                toNext.connect(new InetSocketAddress(nextPeer[0], Integer.parseInt(nextPeer[1])), (int) timeout.toMillis());
                DataOutputStream greeting = new DataOutputStream(toNext.getOutputStream());
                greeting.writeUTF(GREETING);
                greeting.writeInt(rank);
                greeting.writeUTF(nextPeer[2]);
                greeting.flush();
                fromPrevious = accept(server, (rank + size - 1) % size, token, liveness, timeout);
                return new RingAllReduce(rank, size, toNext, fromPrevious, liveness, timeout);
            } catch (IOException | RuntimeException e) {
                closeQuietly(toNext);
                closeQuietly(fromPrevious);
                throw e;
            }
        }
    }

    private static Socket accept(ServerSocket server, int previous, String token, Liveness liveness, Duration timeout)
            throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        server.setSoTimeout(WAKE_MILLIS);
        while (true) {
            liveness.check();
            if (System.nanoTime() > deadline) {
                throw new PeerLostException("worker " + previous + " did not connect within " + timeout.toSeconds() + " s");
            }
            Socket socket;
            try {
                socket = server.accept();
            } catch (SocketTimeoutException wake) {
                continue;
            }
            try {
                socket.setSoTimeout((int) Math.min(timeout.toMillis(), 10_000));
                DataInputStream greeting = new DataInputStream(socket.getInputStream());
                if (greeting.readUTF().equals(GREETING) && greeting.readInt() == previous && greeting.readUTF().equals(token)) {
                    socket.setSoTimeout(WAKE_MILLIS);
                    socket.setTcpNoDelay(true);
                    return socket;
                }
            } catch (IOException | RuntimeException stranger) {
                // not our predecessor: ignore it and keep waiting
            }
            closeQuietly(socket);
        }
    }

    /**
     * Replaces {@code values} by their sum over all workers (every worker passes a vector of the same length).
     *
     * @param values this worker's vector, overwritten with the sum
     * @param singlePrecision whether the values are float32 numbers (sent as 4 bytes, sums rounded to float32)
     * @throws IOException if a peer is lost or sent a vector of another length
     */
    void sum(double[] values, boolean singlePrecision) throws IOException {
        if (size == 1) {
            return;
        }
        calls++;
        int width = singlePrecision ? Float.BYTES : Double.BYTES;
        int largest = (values.length + size - 1) / size;
        if (sendBuffer.length < largest * width) {
            sendBuffer = new byte[largest * width];
            receiveBuffer = new byte[largest * width];
        }
        for (int round = 0; round < size - 1; round++) {
            exchange(values, Math.floorMod(rank - round, size), Math.floorMod(rank - round - 1, size), singlePrecision, true);
        }
        int owned = Math.floorMod(rank + 1, size);
        if (singlePrecision) {
            for (int i = chunkStart(owned, values.length); i < chunkEnd(owned, values.length); i++) {
                values[i] = (float) values[i];
            }
        }
        for (int round = 0; round < size - 1; round++) {
            exchange(values, Math.floorMod(rank - round + 1, size), Math.floorMod(rank - round, size), singlePrecision, false);
        }
    }

    /** Sends one chunk to the next worker while receiving another from the previous one, adding or copying it. */
    private void exchange(double[] values, int sendChunk, int receiveChunk, boolean singlePrecision, boolean add)
            throws IOException {
        int sendFrom = chunkStart(sendChunk, values.length);
        int sendTo = chunkEnd(sendChunk, values.length);
        ByteBuffer outgoing = ByteBuffer.wrap(sendBuffer).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = sendFrom; i < sendTo; i++) {
            if (singlePrecision) {
                outgoing.putFloat((float) values[i]);
            } else {
                outgoing.putDouble(values[i]);
            }
        }
        int sequence = calls;
        int bytes = outgoing.position();
        Future<?> sent = sender.submit(() -> {
            out.writeInt(sequence);
            out.writeInt(sendTo - sendFrom);
            out.write(sendBuffer, 0, bytes);
            out.flush();
            return null;
        });
        int from = chunkStart(receiveChunk, values.length);
        int to = chunkEnd(receiveChunk, values.length);
        byte[] header = new byte[8];
        readFully(header, 8);
        ByteBuffer head = ByteBuffer.wrap(header);
        int theirSequence = head.getInt();
        int count = head.getInt();
        if (theirSequence != sequence || count != to - from) {
            throw new IOException("worker " + previous() + " sent " + count + " numbers for exchange " + theirSequence
                    + " where worker " + rank + " expected " + (to - from) + " for exchange " + sequence
                    + ": the replicas' parameters differ");
        }
        int width = singlePrecision ? Float.BYTES : Double.BYTES;
        readFully(receiveBuffer, count * width);
        ByteBuffer incoming = ByteBuffer.wrap(receiveBuffer).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = from; i < to; i++) {
            double received = singlePrecision ? incoming.getFloat() : incoming.getDouble();
            values[i] = add ? values[i] + received : received;
        }
        awaitSent(sent);
    }

    private void readFully(byte[] target, int length) throws IOException {
        long deadline = System.nanoTime() + timeoutNanos;
        int done = 0;
        while (done < length) {
            int read;
            try {
                read = in.read(target, done, length - done);
            } catch (SocketTimeoutException wake) {
                liveness.check();
                if (System.nanoTime() > deadline) {
                    throw new PeerLostException("worker " + rank + " received nothing from worker " + previous() + " for "
                            + Duration.ofNanos(timeoutNanos).toSeconds() + " s");
                }
                continue;
            } catch (IOException e) {
                throw new PeerLostException("worker " + rank + " lost its connection from worker " + previous() + ": " + e, e);
            }
            if (read < 0) {
                throw new PeerLostException("worker " + previous() + " closed its connection to worker " + rank
                        + " (it failed or was stopped)", new EOFException());
            }
            done += read;
        }
    }

    private void awaitSent(Future<?> sent) throws IOException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            try {
                sent.get(WAKE_MILLIS, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException wake) {
                liveness.check();
                if (System.nanoTime() > deadline) {
                    throw new PeerLostException("worker " + ((rank + 1) % size) + " took nothing from worker " + rank
                            + " for " + Duration.ofNanos(timeoutNanos).toSeconds() + " s");
                }
            } catch (ExecutionException failed) {
                throw new PeerLostException("worker " + rank + " lost its connection to worker " + ((rank + 1) % size) + ": "
                        + failed.getCause(), failed.getCause());
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new PeerLostException("worker " + rank + " was interrupted while sending", interrupted);
            }
        }
    }

    private int previous() {
        return (rank + size - 1) % size;
    }

    private int chunkStart(int chunk, int length) {
        return (int) ((long) chunk * length / size);
    }

    private int chunkEnd(int chunk, int length) {
        return chunkStart(chunk + 1, length);
    }

    /** Closes both connections: a peer still reading learns of it at once. */
    @Override
    public void close() {
        if (sender != null) {
            sender.shutdownNow();
        }
        closeQuietly(toNext);
        closeQuietly(fromPrevious);
    }

    private static void closeQuietly(Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing is best effort: the socket is unusable either way
            }
        }
    }
}
