package io.kraft.broker.network;

import io.kraft.broker.WireClient;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.RecordBatchBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.internal.MemoryRecords;

/**
 * The attacks of the abuse tests, against a broker on this host's loopback at {@code port}: frames of tiny array
 * elements, slow senders holding part of a large frame, a client that never reads its responses, idle connections
 * by the thousand and a gzip bomb. The broker may run in this JVM or another (its resident set is then measured from
 * outside); {@link #main} runs one attack by hand: {@code AbuseClient port attack [count]}.
 */
public final class AbuseClient {
    /** The largest frame a broker takes by default ({@code socket.request.max.bytes}). */
    public static final int MAX_FRAME_BYTES = 104_857_600;

    private AbuseClient() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String attack = args[1];
        int count = args.length > 2 && args[2].matches("[0-9]+") ? Integer.parseInt(args[2]) : 4;
        switch (attack) {
            case "empty-structs" -> System.out.println(count + " frames of " + MAX_FRAME_BYTES
                    + " bytes closed after " + emptyStructFrames(port, count, MAX_FRAME_BYTES) + " ms");
            case "slow-senders" -> {
                try (Connections held = slowSenders(port, count, 4 << 20)) {
                    System.out.println(held.size() + " connections hold 4 MiB of a 100 MiB frame each; Enter ends");
                    System.in.read();
                }
            }
            case "unread" -> System.out.println(unreadResponses(port, count, TimeUnit.SECONDS.toMillis(10))
                    + " requests written in 10 s by " + count + " connections that never read");
            case "idle" -> {
                try (Connections held = idleConnections(port, count)) {
                    System.out.println(held.size() + " idle connections open; Enter ends");
                    System.in.read();
                }
            }
            case "gzip-bomb" -> System.out.println("gzip bomb to compacted topic '" + args[2] + "' answered with"
                    + " error code " + gzipBomb(port, args[2]));
            default -> throw new IllegalArgumentException("unknown attack " + attack
                    + ": empty-structs, slow-senders, unread, idle or gzip-bomb");
        }
    }

    /** A Metadata v4 frame (size prefix included) of {@code frameBytes} whose topics are empty names (2 bytes each). */
    public static ByteBuffer emptyNames(int frameBytes) {
        byte[] clientId = "abuser".getBytes(StandardCharsets.UTF_8);
        int headerBytes = 2 + 2 + 4 + 2 + clientId.length;
        int count = (frameBytes - headerBytes - 4 - 1) / 2;
        // direct, so writing it costs the sender no temporary copy per thread
        ByteBuffer frame = ByteBuffer.allocateDirect(4 + headerBytes + 4 + count * 2 + 1);
        frame.putInt(frame.capacity() - 4).putShort((short) 3).putShort((short) 4).putInt(1)
                .putShort((short) clientId.length).put(clientId).putInt(count);
        frame.position(frame.position() + count * 2);  // zeros: each an empty name
        frame.put((byte) 0);
        return frame.flip();
    }

    /**
     * {@code connections} connections each send one frame of {@code frameBytes} made of empty Metadata topic names
     * and wait until the broker closes them; returns when each was closed (ms after it started).
     */
    public static List<Long> emptyStructFrames(int port, int connections, int frameBytes) throws Exception {
        ByteBuffer frame = emptyNames(frameBytes);
        ExecutorService senders = Executors.newFixedThreadPool(connections);
        try {
            List<Future<Long>> closes = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                ByteBuffer copy = frame.duplicate();
                closes.add(senders.submit(() -> sendAndAwaitClose(port, copy)));
            }
            List<Long> millis = new ArrayList<>();
            for (Future<Long> close : closes) {
                millis.add(close.get(10, TimeUnit.MINUTES));
            }
            return millis;
        } finally {
            senders.shutdownNow();
        }
    }

    /** Writes {@code frame} on a new connection and waits until the server closes it; returns the ms it took. */
    public static long sendAndAwaitClose(int port, ByteBuffer frame) {
        long start = System.nanoTime();
        try (SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
            while (frame.hasRemaining()) {
                channel.write(frame);
            }
            channel.socket().setSoTimeout(60_000);
            ByteBuffer answer = ByteBuffer.allocate(1024);
            while (channel.read(answer.clear()) >= 0) {
                // until the server closes the connection
            }
        } catch (IOException e) {
            // a reset also means the server closed it
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /**
     * {@code count} connections each announce a 100 MiB frame, send {@code bytesEach} of it and stall; they hold
     * their part until closed.
     */
    public static Connections slowSenders(int port, int count, int bytesEach) throws IOException, InterruptedException {
        Connections held = new Connections();
        ByteBuffer part = ByteBuffer.allocateDirect(4 + bytesEach).putInt(0, MAX_FRAME_BYTES);
        try {
            List<ByteBuffer> unsent = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                SocketChannel loris = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                loris.configureBlocking(false);
                held.add(loris);
                unsent.add(part.duplicate());
            }
            // Writes as far as the broker reads: what it refuses to read (its request memory used up) stays here.
            long lastProgress = System.nanoTime();
            while (System.nanoTime() - lastProgress < TimeUnit.MILLISECONDS.toNanos(500)) {
                boolean progress = false;
                boolean done = true;
                for (int i = 0; i < count; i++) {
                    ByteBuffer rest = unsent.get(i);
                    if (rest.hasRemaining()) {
                        progress |= held.channels.get(i).write(rest) > 0;
                        done &= !rest.hasRemaining();
                    }
                }
                if (done) {
                    break;
                }
                if (progress) {
                    lastProgress = System.nanoTime();
                } else {
                    Thread.sleep(10);
                }
            }
            return held;
        } catch (IOException | RuntimeException | InterruptedException e) {
            held.close();
            throw e;
        }
    }

    /**
     * For {@code durationMs} a client writes ApiVersions requests as fast as the broker takes them and reads none
     * of the answers; returns how many it wrote.
     */
    public static long unreadResponses(int port, long durationMs) throws IOException, InterruptedException {
        return unreadResponses(port, 1, durationMs);
    }

    /** As above, from {@code connections} connections at once (written round-robin); returns how many in all. */
    public static long unreadResponses(int port, int connections, long durationMs)
            throws IOException, InterruptedException {
        ByteBuffer request = apiVersionsRequest();
        long written = 0;
        try (Connections greedy = new Connections()) {
            List<ByteBuffer> next = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                SocketChannel channel = SocketChannel.open();
                greedy.add(channel);
                channel.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
                channel.setOption(StandardSocketOptions.SO_SNDBUF, 8192);
                channel.connect(new InetSocketAddress("127.0.0.1", port));
                channel.configureBlocking(false);
                next.add(request.duplicate());
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(durationMs);
            while (System.nanoTime() < deadline) {
                boolean progress = false;
                for (int i = 0; i < connections; i++) {
                    ByteBuffer rest = next.get(i);
                    if (greedy.channels.get(i).write(rest) > 0) {
                        progress = true;
                    }
                    if (!rest.hasRemaining()) {
                        written++;
                        next.set(i, request.duplicate());
                    }
                }
                if (!progress) {
                    Thread.sleep(1);
                }
            }
        }
        return written;
    }

    private static ByteBuffer apiVersionsRequest() {
        byte[] clientId = "greedy".getBytes(StandardCharsets.UTF_8);
        int size = 2 + 2 + 4 + 2 + clientId.length + 1 + 1 + 1 + 1;
        ByteBuffer frame = ByteBuffer.allocate(4 + size);
        frame.putInt(size).putShort((short) 18).putShort((short) 3).putInt(7).putShort((short) clientId.length)
                .put(clientId).put((byte) 0)   // header tags
                .put((byte) 1).put((byte) 1)  // empty compact software name and version
                .put((byte) 0);               // body tags
        return frame.flip();
    }

    /** Opens {@code count} connections that send nothing, held until closed. */
    public static Connections idleConnections(int port, int count) throws IOException {
        Connections held = new Connections();
        try {
            for (int i = 0; i < count; i++) {
                held.add(SocketChannel.open(new InetSocketAddress("127.0.0.1", port)));
            }
            return held;
        } catch (IOException | RuntimeException e) {
            held.close();
            throw e;
        }
    }

    /** A gzip batch of 1,024 keyed records of 1 MiB of zeros each: about 1 MiB that inflates to 1 GiB. */
    public static MemoryRecords gzipBomb() {
        byte[] zeros = new byte[1 << 20];
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(4 << 20), CompressionType.GZIP, 0);
        for (int i = 0; i < 1024; i++) {
            builder.append(System.currentTimeMillis(), ("k" + i).getBytes(StandardCharsets.UTF_8), zeros);
        }
        return MemoryRecords.readableRecords(builder.build());
    }

    /** Produces {@link #gzipBomb} to partition 0 of {@code topic} (acks=1, Produce v9); returns the error code. */
    public static short gzipBomb(int port, String topic) throws Exception {
        return produce(port, topic, gzipBomb()).errorCode();
    }

    /** One Produce v9 (acks=1) of {@code records} to partition 0 of {@code topic} on a new connection. */
    public static ProduceResponseData.PartitionProduceResponse produce(int port, String topic, MemoryRecords records)
            throws Exception {
        short version = 9;
        ProduceRequestData request = new ProduceRequestData().setAcks((short) 1).setTimeoutMs(10_000);
        ProduceRequestData.TopicProduceData topicData = new ProduceRequestData.TopicProduceData().setName(topic);
        topicData.partitionData().add(new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(records));
        request.topicData().add(topicData);
        try (WireClient client = new WireClient(port)) {
            int id = client.send(ApiKeys.PRODUCE, version, request);
            ProduceResponseData response = new ProduceResponseData(client.receive(ApiKeys.PRODUCE, version, id),
                    version);
            return response.responses().iterator().next().partitionResponses().get(0);
        }
    }

    /** Connections an attack holds open until closed. */
    public static final class Connections implements AutoCloseable {
        private final List<SocketChannel> channels = new ArrayList<>();

        void add(SocketChannel channel) {
            channels.add(channel);
        }

        public int size() {
            return channels.size();
        }

        @Override
        public void close() {
            for (SocketChannel channel : channels) {
                try {
                    channel.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }
}
