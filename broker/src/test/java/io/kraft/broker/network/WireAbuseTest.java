package io.kraft.broker.network;

import static io.kraft.broker.TestWaits.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.ClientRecords;
import io.kraft.broker.StandaloneBroker;
import io.kraft.broker.WireClient;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker under the attacks a production listener meets (frames of tiny array elements, slow senders, clients
 * that never read, thousands of idle connections, connection floods) stays within its heap and keeps serving a
 * well-behaved kafka-clients producer and consumer, which lose nothing. Each attack prints what it cost (peak
 * heap, Netty direct memory and resident set of this JVM, which runs the broker and the attackers).
 */
class WireAbuseTest {
    private static final int MAX_FRAME_BYTES = AbuseClient.MAX_FRAME_BYTES;

    @TempDir
    Path dir;

    private final AtomicInteger topics = new AtomicInteger();

    /** A producer writes 2,000 records to a new topic and a consumer reads each back. */
    private void assertServesWellBehavedClients(StandaloneBroker broker) throws Exception {
        String topic = "good-" + topics.incrementAndGet();
        broker.createTopic(topic, 3, Map.of());
        int[] partitions;
        try (KafkaProducer<byte[], byte[]> producer = ClientRecords.producer(broker.bootstrapServers(), Map.of())) {
            partitions = ClientRecords.produce(producer, topic, 2_000);
        }
        try (KafkaConsumer<byte[], byte[]> consumer = ClientRecords.consumer(broker.bootstrapServers(), Map.of())) {
            ClientRecords.consumeAndVerify(consumer, topic, 3, 2_000, partitions);
        }
    }

    @Test
    void fourConnectionsSendingHundredMebibyteFramesOfEmptyStructsAreRefusedWithinTheHeap() throws Exception {
        try (StandaloneBroker broker = new StandaloneBroker(dir, Map.of());
             MemorySampler memory = new MemorySampler()) {
            ByteBuffer frame = AbuseClient.emptyNames(MAX_FRAME_BYTES);
            ExecutorService attackers = Executors.newFixedThreadPool(4);
            List<Future<Long>> closes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                ByteBuffer copy = frame.duplicate();
                closes.add(attackers.submit(() -> AbuseClient.sendAndAwaitClose(broker.port(), copy)));
            }
            assertServesWellBehavedClients(broker);
            List<Long> millis = new ArrayList<>();
            for (Future<Long> close : closes) {
                millis.add(close.get(120, TimeUnit.SECONDS));
            }
            attackers.shutdown();
            awaitTrue(() -> broker.server().requestMemoryInUseBytes() == 0, "request memory to be given back");
            System.out.println(memory.report("4 x 100 MiB frames of 52 million empty structs each, closed after "
                    + millis + " ms"));
        }
    }

    @Test
    void aGzipBatchOfOneMebibyteInflatingToOneGibibyteIsRefusedWithRecordTooLarge() throws Exception {
        try (StandaloneBroker broker = new StandaloneBroker(dir, Map.of());
             MemorySampler memory = new MemorySampler();
             WireClient client = new WireClient(broker.port())) {
            broker.createTopic("compacted", 1, Map.of("cleanup.policy", "compact"));
            MemoryRecords bomb = AbuseClient.gzipBomb();
            long start = System.nanoTime();
            ProduceResponseData.PartitionProduceResponse answer = DataPathWireTest.produce(client, (short) 9,
                    "compacted", 0, (short) 1, bomb);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(Errors.MESSAGE_TOO_LARGE.code(), answer.errorCode(), answer.errorMessage());
            assertServesWellBehavedClients(broker);
            System.out.println(memory.report("gzip bomb of " + bomb.sizeInBytes() + " bytes inflating to 1 GiB,"
                    + " refused in " + millis + " ms"));
        }
    }

    @Test
    void slowSendersHoldOnlyTheBytesTheySent() throws Exception {
        try (StandaloneBroker broker = new StandaloneBroker(dir, Map.of("queued.max.request.bytes", "1048576"));
             MemorySampler memory = new MemorySampler()) {
            List<SocketChannel> lorises = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                SocketChannel loris = SocketChannel.open(new InetSocketAddress("127.0.0.1", broker.port()));
                loris.write(ByteBuffer.allocate(104).putInt(MAX_FRAME_BYTES).rewind());
                lorises.add(loris);
            }
            awaitTrue(() -> broker.server().requestMemoryInUseBytes() == 50 * 100,
                    "the slow senders to hold what they sent");
            for (int round = 0; round < 5; round++) {
                for (SocketChannel loris : lorises) {
                    loris.write(ByteBuffer.allocate(1));
                }
            }
            // 50 announced 100 MiB frames would be 5 GiB; a pool of 1 MiB still serves everyone else.
            assertServesWellBehavedClients(broker);
            awaitTrue(() -> broker.server().requestMemoryInUseBytes() == 50 * 105, "each byte to be counted once");
            for (SocketChannel loris : lorises) {
                loris.close();
            }
            awaitTrue(() -> broker.server().requestMemoryInUseBytes() == 0, "closed senders to give memory back");
            System.out.println(memory.report("50 slow senders announcing 100 MiB frames"));
        }
    }

    @Test
    void sendersStallingMidFrameWithThePoolFullAreClosedOnceTheyStarveOthers() throws Exception {
        try (StandaloneBroker broker = new StandaloneBroker(dir, Map.of("queued.max.request.bytes", "1048576",
                "queued.max.request.stall.ms", "500"));
             MemorySampler memory = new MemorySampler()) {
            // 16 connections send 256 KiB of a 100 MiB frame each and stop: 4 MiB of partial frames for a 1 MiB pool,
            // which without the stall limit would hold it (and the one overdraft) for good.
            try (AbuseClient.Connections stalled = AbuseClient.slowSenders(broker.port(), 16, 256 << 10)) {
                awaitTrue(() -> broker.server().requestMemoryInUseBytes() >= 1 << 20, "the pool to fill");
                long start = System.nanoTime();
                assertServesWellBehavedClients(broker);
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertTrue(broker.server().openConnections() < 16, "stalled senders were closed");
                System.out.println(memory.report("16 senders stalled mid-frame in a 1 MiB pool; well-behaved"
                        + " clients served after " + millis + " ms"));
            }
        }
    }

    @Test
    void aClientThatNeverReadsItsResponsesIsPausedNotBuffered() throws Exception {
        try (StandaloneBroker broker = new StandaloneBroker(dir, Map.of());
             MemorySampler memory = new MemorySampler()) {
            ByteBuffer request = apiVersionsRequest();
            long written = 0;
            try (SocketChannel greedy = SocketChannel.open()) {
                greedy.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
                greedy.setOption(StandardSocketOptions.SO_SNDBUF, 8192);
                greedy.connect(new InetSocketAddress("127.0.0.1", broker.port()));
                greedy.configureBlocking(false);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                ByteBuffer next = request.duplicate();
                while (System.nanoTime() < deadline) {
                    if (greedy.write(next) == 0) {
                        Thread.sleep(1);
                        continue;
                    }
                    if (!next.hasRemaining()) {
                        written++;
                        next = request.duplicate();
                    }
                }
                assertServesWellBehavedClients(broker);
            }
            System.out.println(memory.report(written + " ApiVersions requests written in 3 s by a client that"
                    + " never reads"));
            // Without back-pressure loopback takes millions in 3 s; paused, only what socket buffers and the
            // connection's bounded queues hold gets in.
            assertTrue(written < 50_000, written + " requests were accepted from a client that reads nothing");
        }
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

    @Test
    void tenThousandIdleConnectionsCostLittleAndDoNotStopService() throws Exception {
        int connections = Integer.getInteger("kraft.idleConnections", 10_000);
        try (StandaloneBroker broker = new StandaloneBroker(dir, Map.of());
             MemorySampler memory = new MemorySampler()) {
            System.gc();
            long heapBefore = usedHeap();
            Process client = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), IdleConnectionsClient.class.getName(),
                    Integer.toString(broker.port()), Integer.toString(connections))
                    .redirectErrorStream(true).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(),
                        StandardCharsets.UTF_8));
                String opened = out.readLine();
                assertEquals("opened " + connections + " failed 0", opened);
                awaitTrue(() -> broker.server().openConnections() == connections, "every connection to be accepted");
                assertServesWellBehavedClients(broker);
                System.gc();
                long perConnection = (usedHeap() - heapBefore) / connections;
                System.out.println(memory.report(connections + " idle connections, about " + perConnection
                        + " heap bytes each"));
            } finally {
                client.getOutputStream().close();
                client.waitFor(60, TimeUnit.SECONDS);
                client.destroyForcibly();
            }
            awaitTrue(() -> broker.server().openConnections() == 0, "closed connections to be counted out");
        }
    }

    private static long usedHeap() {
        return Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
    }

    @Test
    void connectionsOverTheListenerOrAddressLimitAreClosedAsTheyArrive() throws Exception {
        try (StandaloneBroker perIp = new StandaloneBroker(dir.resolve("a"), Map.of("max.connections.per.ip", "3"))) {
            assertAdmitsExactly(perIp, 3);
        }
        try (StandaloneBroker overridden = new StandaloneBroker(dir.resolve("b"), Map.of(
                "max.connections.per.ip", "1", "max.connections.per.ip.overrides", "127.0.0.1:4"))) {
            assertAdmitsExactly(overridden, 4);
        }
        try (StandaloneBroker listener = new StandaloneBroker(dir.resolve("c"), Map.of("max.connections", "2"))) {
            assertAdmitsExactly(listener, 2);
        }
    }

    private static void assertAdmitsExactly(StandaloneBroker broker, int admitted) throws Exception {
        List<WireClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < admitted; i++) {
                clients.add(new WireClient(broker.port()));
            }
            awaitTrue(() -> broker.server().openConnections() == admitted, admitted + " connections to be admitted");
            try (WireClient refused = new WireClient(broker.port())) {
                assertTrue(refused.closedByServer(), "connection " + (admitted + 1) + " is closed");
            }
            clients.remove(0).close();
            awaitTrue(() -> broker.server().openConnections() == admitted - 1, "a closed connection frees its slot");
            clients.add(new WireClient(broker.port()));
            awaitTrue(() -> broker.server().openConnections() == admitted, "the freed slot to be taken again");
        } finally {
            for (WireClient client : clients) {
                client.close();
            }
        }
    }

    @Test
    void connectionsArrivingFasterThanTheCreationRateWaitTheirTurn() throws Exception {
        try (StandaloneBroker broker = new StandaloneBroker(dir, Map.of("max.connection.creation.rate", "10"))) {
            List<SocketChannel> clients = new ArrayList<>();
            long start = System.nanoTime();
            try {
                for (int i = 0; i < 25; i++) {
                    clients.add(SocketChannel.open(new InetSocketAddress("127.0.0.1", broker.port())));
                }
                awaitTrue(() -> broker.server().openConnections() == 25, "every connection to be accepted in time");
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                // a burst of 10, then 15 more at 10 per second
                assertTrue(millis >= 1_000, "25 connections at 10/s were accepted in " + millis + " ms");
            } finally {
                for (SocketChannel client : clients) {
                    client.close();
                }
            }
        }
    }
}
