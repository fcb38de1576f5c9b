package io.kraft.server.bench;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.BrokerHeartbeatReply;
import io.kraft.metadata.controller.BrokerHeartbeatRequest;
import io.kraft.metadata.controller.BrokerRegistrationRequest;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.ControllerSettings;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.fault.FaultHandler;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.loader.MetadataFollower;
import io.kraft.metadata.loader.MetadataLoader;
import io.kraft.metadata.loader.PublisherQueue;
import io.kraft.metadata.loop.SingleThreadEventLoop;
import io.kraft.metadata.loop.Time;
import io.kraft.metadata.store.RocksDbMetadataStorage;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.raft.file.MetadataLogRetention;
import io.kraft.broker.network.TestCertificateAuthority;
import io.kraft.raft.grpc.GrpcRaftTransport;
import io.kraft.raft.grpc.TransportSecurity;
import io.kraft.server.ControllerNode;
import io.kraft.server.grpc.ControlPlaneSecurity;
import io.kraft.server.grpc.ControllerGrpcService;
import io.kraft.server.grpc.GrpcControllerClient;
import io.kraft.storage.errors.Errors;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Three quorum controllers on loopback gRPC with file logs, RocksDB state and Kafka's default timeouts, driven
 * through the control plane a broker uses ({@link GrpcControllerClient}): a round of {@code bench.topics} topics x 10
 * partitions (3 replicas each) with 64 requests in flight on an empty image, reporting records committed per second
 * and the p50/p99 latency of one CreateTopics, after warm-up rounds (created and deleted) until two consecutive rates
 * agree within 10 % (at most {@code bench.warmupRounds}); then the image grown so that the same round ends at
 * {@code bench.totalPartitions} partitions. Each image gets {@code bench.rounds} rounds (each but the last deleted
 * again, so all start from the same image) and their median rates are compared (a committed batch must cost what it
 * changed, not what the image holds). At both sizes it reports the
 * snapshot (size; how long the loop waits for the checkpoint, the time to store and to load it), the heap a
 * controller holding the image takes, and the time a new broker (a Raft observer with an empty directory) takes to
 * catch up; then a controller failover as a broker sees it (from stopping the active controller, its connections
 * dropping as after kill -9, until a new topic creation succeeds) and the time the stopped controller, restarted on
 * its directory, takes to catch up again. Not a test; run from the repository's root:
 * {@code mvn -B -q -pl server -am -Pcontroller-bench test-compile exec:exec -Dbench.topics=5000
 * -Dbench.totalPartitions=100000} (optional {@code -Dbench.jvmArgs=-Xmx8g} for a million partitions;
 * {@code -Dbench.tls=true} runs the whole control plane over mutual TLS, each node with its own certificate).
 */
public final class ControllerBenchmark {
    private static final String CLUSTER_ID = "controller-bench";
    private static final long TICK_MS = ControllerNode.TICK_MS; // as the nodes tick
    private static final int PARTITIONS_PER_TOPIC = 10;
    private static final int REPLICATION_FACTOR = 3;
    private static final int IN_FLIGHT = 64;
    /** A fault means the numbers are meaningless: stop at once. */
    private static final FaultHandler BENCH_FAULTS = (message, cause) -> {
        System.err.println("metadata fault: " + message);
        Runtime.getRuntime().halt(1);
    };

    private static final boolean TLS = Boolean.getBoolean("bench.tls");
    /** Measured rounds on each image; the rate compared is their median. */
    private static final int ROUNDS = Math.max(1, Integer.getInteger("bench.rounds", 3));
    /** At most this many warm-up rounds, however unsteady the rate. */
    private static final int WARMUP_ROUNDS = Math.max(2, Integer.getInteger("bench.warmupRounds", 8));
    /** Two consecutive warm-up rounds this close (relative to the faster) mean the JIT is done. */
    private static final double STEADY = 0.10;

    /** Concurrent: the heartbeat thread reads the latest image while the main thread stops and starts controllers. */
    private final Map<Integer, QuorumController> controllers = new java.util.concurrent.ConcurrentSkipListMap<>();
    /** Each registered broker's client (on TLS a broker may heartbeat only with its own certificate). */
    private final Map<Integer, GrpcControllerClient> brokerClients = new TreeMap<>();
    /** Each registered broker's epoch, for its heartbeats. */
    private final Map<Integer, Long> brokerEpochs = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.ScheduledExecutorService heartbeats =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "bench-broker-heartbeats");
                thread.setDaemon(true);
                return thread;
            });
    private TestCertificateAuthority authority;
    private final Map<Integer, RaftDriver> drivers = new TreeMap<>();
    private final Map<Integer, FileRaftLog> logs = new TreeMap<>();
    private QuorumConfig quorum;
    private GrpcControllerClient client;
    /** Topics every image holds once the creations so far have committed. */
    private int expectedTopics;

    public static void main(String[] args) throws Exception {
        int topics = Integer.getInteger("bench.topics", 1_000);
        int totalPartitions = Integer.getInteger("bench.totalPartitions", 100_000);
        new ControllerBenchmark().run(topics, totalPartitions);
        System.exit(0);
    }

    private void run(int topics, int totalPartitions) throws Exception {
        Path dir = Files.createTempDirectory("kraft-controller-bench");
        if (TLS) {
            authority = TestCertificateAuthority.create(dir.resolve("ca"), "CN=bench-ca");
            System.out.println("control plane: mutual TLS");
        }
        quorum = QuorumConfig.from(Map.of(QuorumConfig.VOTERS,
                "1@localhost:" + freePort() + ",2@localhost:" + freePort() + ",3@localhost:" + freePort()));
        for (int id = 1; id <= 3; id++) {
            start(id, dir);
        }
        client = new GrpcControllerClient(quorum.voters(), GrpcControllerClient.DEFAULT_REQUEST_DEADLINE_MS, 2_000,
                OptionalInt::empty, security(100));
        for (int broker = 1; broker <= REPLICATION_FACTOR; broker++) {
            startBroker(100 + broker);
        }
        // As brokers do: a controller that takes over (the planned failover, or a loaded machine's long GC pause) gives
        // each session only the takeover grace, so brokers that stopped heartbeating would be fenced mid-round.
        heartbeats.scheduleWithFixedDelay(this::heartbeatAll, 1, 1, TimeUnit.SECONDS);

        // Warm the JVMs up until the rate is steady, so that the empty image's rounds are not the JIT's warm-up.
        warmUp(topics);
        List<Round> emptyRounds = measureRounds("on an empty image", "bench-", topics, 0);
        measureImage(dir, topics + " topics");

        // Grow so that each round of the same size on top ends at the total: its rate is compared with the first one's.
        int growTopics = Math.max(0, totalPartitions / PARTITIONS_PER_TOPIC - 2 * topics);
        long growStart = System.nanoTime();
        createTopics("grow-", 0, growTopics);
        awaitAllImagesAt(topics + growTopics);
        MetadataImage grown = latestImage();
        System.out.printf("grew the image to %,d partitions (%,d topics) in %,d ms; last offset %,d%n",
                partitionCount(grown), grown.topics().size(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - growStart), grown.offset());
        List<Round> fullRounds = measureRounds("on top of " + String.format("%,d", partitionCount(grown))
                + " partitions", "top-", topics, topics + growTopics);
        double emptyRate = median(emptyRounds, Round::rate);
        double fullRate = median(fullRounds, Round::rate);
        System.out.printf("creation rate, median of %d rounds each: %,.0f records/s on the empty image %s, %,.0f "
                        + "records/s on the large one %s; large / empty: %.2f%n", ROUNDS, emptyRate,
                valuesOf(emptyRounds, Round::rate), fullRate, valuesOf(fullRounds, Round::rate), fullRate / emptyRate);
        double emptyPerCpu = median(emptyRounds, Round::recordsPerCpuSecond);
        double fullPerCpu = median(fullRounds, Round::recordsPerCpuSecond);
        System.out.printf("records per CPU second of the process (all three controllers, the client and the GC), "
                        + "median: %,.0f on the empty image %s, %,.0f on the large one %s; large / empty: %.2f%n",
                emptyPerCpu, valuesOf(emptyRounds, Round::recordsPerCpuSecond), fullPerCpu,
                valuesOf(fullRounds, Round::recordsPerCpuSecond), fullPerCpu / emptyPerCpu);
        int partitions = partitionCount(latestImage());
        int active = client.currentTarget();
        long stoppedAt = System.nanoTime();
        stop(active);
        expectedTopics++;
        createUntilDone("after-failover");
        long failoverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
        System.out.printf("controller failover with %,d partitions in the image: active controller %d stopped, "
                + "a topic created through controller %d after %,d ms%n", partitions, active, client.currentTarget(),
                failoverMs);
        measureImage(dir, "grown");

        long restartedAt = System.nanoTime();
        start(active, dir);
        long target = latestImage().offset();
        while (controllers.get(active).image().offset() < target) {
            Thread.sleep(10);
        }
        System.out.printf("controller %d restarted on its directory (its snapshots and log) caught up to offset %,d "
                + "in %,d ms%n", active, target, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartedAt));

        heartbeats.shutdownNow();
        client.close();
        brokerClients.values().forEach(GrpcControllerClient::close);
        for (int id : List.copyOf(drivers.keySet())) {
            stop(id);
        }
    }

    /** Deletes {@code prefix + 0..count-1} and waits until every image is back at {@code remaining} topics. */
    private void deleteTopics(String prefix, int count, int remaining) throws Exception {
        long start = System.nanoTime();
        ProcessCost before = ProcessCost.now();
        ThreadCpu threadsBefore = ThreadCpu.now();
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        CompletableFuture<?>[] all = new CompletableFuture<?>[count];
        for (int i = 0; i < count; i++) {
            inFlight.acquire();
            all[i] = client.deleteTopic(prefix + i)
                    .exceptionally(error -> {
                        if (!isError(error, Errors.UNKNOWN_TOPIC_OR_PARTITION)) {
                            throw new java.util.concurrent.CompletionException(error);
                        }
                        return null; // a retry after a leader change: the first attempt deleted it
                    })
                    .whenComplete((id, error) -> inFlight.release());
        }
        CompletableFuture.allOf(all).get(10, TimeUnit.MINUTES);
        while (!controllers.values().stream().allMatch(c -> c.image().topics().size() == remaining)) {
            Thread.sleep(10);
        }
        expectedTopics = remaining;
        // Deleting is not timed, but what it leaves behind (RocksDB compaction, garbage) lands in the next round.
        System.out.printf("  deleted %,d topics in %,d ms; process CPU %.1f s, GC %,d ms; by thread: %s%n", count,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), ProcessCost.now().since(before).cpuSeconds(),
                ProcessCost.now().since(before).gcMillis(), ThreadCpu.now().topSince(threadsBefore, 6));
    }

    /**
     * Creates and deletes rounds of {@code topics} topics on the empty image until two consecutive rounds' rates agree
     * within {@link #STEADY}, at most {@link #WARMUP_ROUNDS} rounds: the first rounds run interpreted and C1 code.
     */
    private void warmUp(int topics) throws Exception {
        double previous = -1;
        for (int round = 1; round <= WARMUP_ROUNDS; round++) {
            String prefix = "warmup-" + round + "-";
            // Judged by the CPU a record costs, which the JIT lowers and other processes' load hardly moves.
            double rate = createAndReport("to warm up (round " + round + ")", prefix, topics).recordsPerCpuSecond();
            deleteTopics(prefix, topics, 0);
            if (previous > 0 && Math.abs(rate - previous) <= STEADY * Math.max(rate, previous)) {
                System.out.printf("warm after %d rounds (the last two within %.0f %%)%n", round, STEADY * 100);
                return;
            }
            previous = rate;
        }
        System.out.printf("still not steady after %d warm-up rounds: the figures below carry the difference%n",
                WARMUP_ROUNDS);
    }

    /**
     * {@link #ROUNDS} rounds of {@code topics} creations on an image of {@code baseTopics} topics, each but the last
     * deleted again so that every round starts from the same image; returns each round's records per second.
     */
    private List<Round> measureRounds(String label, String prefix, int topics, int baseTopics) throws Exception {
        List<Round> rates = new java.util.ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            String roundPrefix = prefix + round + "-";
            rates.add(createAndReport(label + " (round " + round + " of " + ROUNDS + ")", roundPrefix, topics));
            if (round < ROUNDS) {
                deleteTopics(roundPrefix, topics, baseTopics);
            }
        }
        return rates;
    }

    /** One round's records per second of wall-clock time and per CPU second of the whole process. */
    private record Round(double rate, double recordsPerCpuSecond) {
    }

    private static double median(List<Round> rounds, java.util.function.ToDoubleFunction<Round> figure) {
        double[] sorted = rounds.stream().mapToDouble(figure).sorted().toArray();
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static String valuesOf(List<Round> rounds, java.util.function.ToDoubleFunction<Round> figure) {
        return rounds.stream().map(round -> String.format("%,.0f", figure.applyAsDouble(round)))
                .collect(java.util.stream.Collectors.joining(" / ", "(", ")"));
    }

    /** Creates {@code count} topics and reports rate, latency and what the process spent on it. */
    private Round createAndReport(String label, String prefix, int count) throws Exception {
        long firstOffset = latestImage().offset();
        ProcessCost before = ProcessCost.now();
        ThreadCpu threadsBefore = ThreadCpu.now();
        long[] latenciesNanos = createTopics(prefix, 0, count);
        long createdOffset = awaitAllImagesAt(expectedTopics + count);
        ProcessCost cost = ProcessCost.now().since(before);
        String threads = ThreadCpu.now().topSince(threadsBefore, 8);
        long records = createdOffset - firstOffset;
        long elapsedNanos = latenciesNanos[latenciesNanos.length - 1];
        latenciesNanos = Arrays.copyOf(latenciesNanos, latenciesNanos.length - 1);
        Arrays.sort(latenciesNanos);
        double rate = records * 1e9 / elapsedNanos;
        System.out.printf("created %,d topics x %d partitions (RF %d) %s through the gRPC control plane, %d in flight%n",
                count, PARTITIONS_PER_TOPIC, REPLICATION_FACTOR, label, IN_FLIGHT);
        System.out.printf("  %,d records committed in %,d ms: %,.0f records/s, %,.0f topics/s%n", records,
                TimeUnit.NANOSECONDS.toMillis(elapsedNanos), rate, count * 1e9 / elapsedNanos);
        System.out.printf("  CreateTopics latency p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                percentileMs(latenciesNanos, 0.50), percentileMs(latenciesNanos, 0.99),
                latenciesNanos[latenciesNanos.length - 1] / 1e6);
        double perCpuSecond = records / cost.cpuSeconds();
        System.out.printf("  process CPU %.1f s (%,.0f records per CPU second), GC %,d ms%n", cost.cpuSeconds(),
                perCpuSecond, cost.gcMillis());
        System.out.printf("  CPU by thread: %s%n", threads);
        return new Round(rate, perCpuSecond);
    }

    private static int partitionCount(MetadataImage image) {
        int partitions = 0;
        for (var topic : image.topics().topicsById().values()) {
            partitions += topic.partitions().size();
        }
        return partitions;
    }

    /** The live heap {@link ImageHeapProbe} measures for snapshot {@code id} of the store in {@code work}. */
    private static long heapHoldingImage(Path work, SnapshotId id) throws IOException, InterruptedException {
        String javaBinary = ProcessHandle.current().info().command().orElse("java");
        Process probe = new ProcessBuilder(javaBinary, "-Xmx2g", "-cp", System.getProperty("java.class.path"),
                ImageHeapProbe.class.getName(), work.toString(), id.toString(), work.resolve("probe").toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(probe.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
        if (probe.waitFor() != 0) {
            throw new IllegalStateException("the heap probe failed (exit " + probe.exitValue() + ")");
        }
        String[] lines = out.split("\n");
        return Long.parseLong(lines[lines.length - 1].trim());
    }

    /**
     * Snapshots the current image the way a controller does (a RocksDB checkpoint of the state holding it), loads it
     * back as a restarting node does, and times a new broker (an observer with an empty directory) catching up.
     */
    private void measureImage(Path dir, String label) throws Exception {
        MetadataImage image = latestImage();
        Path work = dir.resolve("measure-" + label);
        FileSnapshotStore snapshots = FileSnapshotStore.open(work);
        List<byte[]> records = image.toRecords().stream().map(MetadataRecord::toByteArray).toList();
        long sizeOfRecords = records.stream().mapToLong(r -> r.length).sum();
        SnapshotId id;
        long captureNanos;
        long saveNanos;
        RocksDbMetadataStorage writtenState = new RocksDbMetadataStorage(work.resolve("state"), snapshots);
        try (SingleThreadEventLoop publishing = new SingleThreadEventLoop("bench-publisher");
             MetadataLoader writer = new MetadataLoader("bench", writtenState, new SnapshotPolicy(1, 1), Time.SYSTEM,
                     new PublisherQueue("bench", publishing, BENCH_FAULTS))) {
            writer.applyCommitted(new CommittedBatch(0, 1, records));
            writtenState.awaitApplied(); // the save is timed on its own, not with the image's writing
            long started = System.nanoTime();
            CompletableFuture<SnapshotId> saving = writer.maybeSnapshot().orElseThrow();
            captureNanos = System.nanoTime() - started;
            id = saving.get(10, TimeUnit.MINUTES);
            saveNanos = System.nanoTime() - started;
        }
        long loadNanos;
        try (SingleThreadEventLoop publishing = new SingleThreadEventLoop("bench-publisher");
             MetadataLoader reader = new MetadataLoader("bench", new RocksDbMetadataStorage(work.resolve("loaded"),
                     snapshots), SnapshotPolicy.from(Map.of()), Time.SYSTEM,
                     new PublisherQueue("bench", publishing, BENCH_FAULTS))) {
            long started = System.nanoTime();
            reader.loadSnapshot(id);
            loadNanos = System.nanoTime() - started;
            if (reader.image().topics().size() != image.topics().size()) {
                throw new IllegalStateException("the loaded snapshot lost topics");
            }
        }
        // What a controller holds for it (the image and its managers' indexes over it), measured in a JVM of its own.
        System.out.printf("[%s] heap of a controller holding the image (image and managers' indexes): %,d MiB%n", label,
                heapHoldingImage(work, id) >> 20);
        System.out.printf("[%s] image of %,d records (%,d bytes): snapshot %,d bytes on disk, saved in %,d ms (the "
                + "loop waits %,d ms, the rest is done in the background), loaded in %,d ms%n",
                label, records.size(), sizeOfRecords, snapshots.sizeBytes(id), TimeUnit.NANOSECONDS.toMillis(saveNanos),
                TimeUnit.NANOSECONDS.toMillis(captureNanos), TimeUnit.NANOSECONDS.toMillis(loadNanos));

        int observerId = 200 + label.length();
        Path observerDir = dir.resolve("observer-" + label);
        FileSnapshotStore observerSnapshots = FileSnapshotStore.open(observerDir);
        FileRaftLog log = FileRaftLog.open(observerDir, 64 * 1024 * 1024);
        MetadataFollower follower = MetadataFollower.open(observerId, observerDir.resolve("broker-state"),
                observerSnapshots, SnapshotPolicy.from(Map.of()), BENCH_FAULTS);
        RaftDriver driver = new RaftDriver(quorum.raftConfig(observerId, TICK_MS, ControllerNode.FETCH_MAX_ENTRIES), TICK_MS, log,
                observerSnapshots, MetadataLogRetention.from(log, Map.of()), new FileQuorumStateStore(observerDir),
                new GrpcRaftTransport(observerId, CLUSTER_ID, quorum.voters(), -1, quorum.requestTimeoutMs(),
                        List.of(), security(observerId)), follower, observerId);
        long started = System.nanoTime();
        ProcessCost before = ProcessCost.now();
        follower.start(driver);
        driver.start();
        try {
            while (follower.image().offset() < image.offset()) {
                Thread.sleep(10);
            }
            ProcessCost cost = ProcessCost.now().since(before);
            // The follower's own work is its loop thread's CPU; the rest of the wall time it waited (for the fetch,
            // for the CPU, for collections of this JVM's heap, which holds three controllers' images).
            System.out.printf("[%s] a new broker (observer, empty directory) caught up to offset %,d in %,d ms "
                            + "(its loop on CPU %,d ms; the process meanwhile on CPU %.1f s, GC %,d ms)%n", label,
                    image.offset(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                    ProcessCost.threadCpuMs("metadata-follower-" + observerId), cost.cpuSeconds(), cost.gcMillis());
        } finally {
            driver.close();
            follower.close();
            log.close();
        }
    }

    private void start(int nodeId, Path dir) {
        Path nodeDir = dir.resolve("node-" + nodeId);
        FileSnapshotStore snapshots = FileSnapshotStore.open(nodeDir);
        FileRaftLog log = FileRaftLog.open(nodeDir, 64 * 1024 * 1024);
        QuorumController controller = QuorumController.builder(nodeId, settings())
                .topicConfigs(topicConfigs())
                .supportedFeatures(Map.of("metadata.version", new SupportedRange(1, 3)))
                .storage(new RocksDbMetadataStorage(nodeDir.resolve("state"), snapshots))
                .faultHandler(BENCH_FAULTS)
                .build();
        GrpcRaftTransport transport = new GrpcRaftTransport(nodeId, CLUSTER_ID, quorum.voters(),
                quorum.voters().get(nodeId).getPort(), quorum.requestTimeoutMs(),
                List.of(new ControllerGrpcService(controller)), security(nodeId));
        RaftDriver driver = new RaftDriver(quorum.raftConfig(nodeId, TICK_MS, ControllerNode.FETCH_MAX_ENTRIES), TICK_MS, log, snapshots,
                MetadataLogRetention.from(log, Map.of()), new FileQuorumStateStore(nodeDir), transport, controller,
                nodeId);
        controller.start(driver);
        driver.start();
        controllers.put(nodeId, controller);
        drivers.put(nodeId, driver);
        logs.put(nodeId, log);
    }

    static TopicConfigResolver topicConfigs() {
        return new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
    }

    // Sessions and their connection-loss grace outlast the run: on this loaded machine a controller's loop may stall
    // for seconds (a checkpoint, GC), the brokers' heartbeat streams end, and brokers fenced meanwhile would leave
    // no broker to place a topic on (INVALID_REPLICATION_FACTOR) in the middle of a round. Fencing is not measured.
    static ControllerSettings settings() {
        return new ControllerSettings(CLUSTER_ID, TimeUnit.HOURS.toMillis(1), TimeUnit.HOURS.toMillis(1), false, 1, 1);
    }

    /** Stops a controller the way its peers and clients see a killed process: its connections drop at once. */
    private void stop(int nodeId) {
        drivers.remove(nodeId).close();
        controllers.remove(nodeId).close();
        logs.remove(nodeId).close();
    }

    /** Plaintext, or with {@code bench.tls} mutual TLS with a certificate naming {@code nodeId}. */
    private TransportSecurity security(int nodeId) {
        if (!TLS) {
            return TransportSecurity.plaintext();
        }
        try {
            return ControlPlaneSecurity.from(authority.controlPlaneProperties(
                    authority.issue("CN=kraft-node-" + nodeId)));
        } catch (Exception e) {
            throw new IllegalStateException("cannot issue a certificate for node " + nodeId, e);
        }
    }

    /** One heartbeat from each registered broker; an error (no controller at the moment) waits for the next turn. */
    private void heartbeatAll() {
        try {
            long offset = latestImage().offset();
            brokerEpochs.forEach((brokerId, epoch) -> brokerClients.get(brokerId).heartbeat(
                    new BrokerHeartbeatRequest(brokerId, epoch, offset, false, false)));
        } catch (RuntimeException e) {
            System.err.println("broker heartbeats skipped this turn: " + e);
        }
    }

    private void startBroker(int brokerId) throws Exception {
        // Its own client, as a broker has: its heartbeat stream follows the active controller across the failover.
        GrpcControllerClient client = new GrpcControllerClient(quorum.voters(),
                GrpcControllerClient.DEFAULT_REQUEST_DEADLINE_MS, 2_000, OptionalInt::empty, security(brokerId));
        brokerClients.put(brokerId, client);
        long epoch = client.registerBroker(new BrokerRegistrationRequest(CLUSTER_ID, brokerId, UUID.randomUUID(),
                List.of(new Endpoint("PLAINTEXT", "localhost", 9000 + brokerId, "PLAINTEXT")), Optional.empty()))
                .get(60, TimeUnit.SECONDS);
        brokerEpochs.put(brokerId, epoch);
        while (true) {
            BrokerHeartbeatReply reply = client.heartbeat(new BrokerHeartbeatRequest(brokerId, epoch,
                    latestImage().offset(), false, false)).get(60, TimeUnit.SECONDS);
            if (!reply.isFenced()) {
                return;
            }
            Thread.sleep(20);
        }
    }

    /**
     * Creates {@code count} topics with at most {@link #IN_FLIGHT} requests outstanding.
     *
     * @return each creation's latency in nanoseconds, then the whole run's duration as the last element
     */
    private long[] createTopics(String prefix, int first, int count) throws Exception {
        long[] latencies = new long[count + 1];
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CompletableFuture<?>[] all = new CompletableFuture<?>[count];
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            inFlight.acquire();
            int index = i;
            long sent = System.nanoTime();
            all[i] = client.createTopic(CreateTopicRequest.of(prefix + (first + i), PARTITIONS_PER_TOPIC,
                    REPLICATION_FACTOR)).whenComplete((result, error) -> {
                        latencies[index] = System.nanoTime() - sent;
                        if (error != null && !isError(error, Errors.TOPIC_ALREADY_EXISTS)) {
                            failure.compareAndSet(null, error);
                        }
                        inFlight.release();
                    });
        }
        CompletableFuture.allOf(all).exceptionally(e -> null).get(10, TimeUnit.MINUTES);
        latencies[count] = System.nanoTime() - start;
        if (failure.get() != null) {
            throw new IllegalStateException("a topic creation failed", failure.get());
        }
        return latencies;
    }

    private void createUntilDone(String name) throws Exception {
        while (true) {
            try {
                client.createTopic(CreateTopicRequest.of(name, PARTITIONS_PER_TOPIC, REPLICATION_FACTOR))
                        .get(60, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (isError(e.getCause(), Errors.TOPIC_ALREADY_EXISTS)) {
                    return;
                }
                if (!isError(e.getCause(), Errors.NOT_CONTROLLER)) {
                    throw e;
                }
            }
        }
    }

    /**
     * Whether a request failed with the controller's {@code error}. The benchmark's topic names are its own, so a
     * creation answered TOPIC_ALREADY_EXISTS (or a deletion UNKNOWN_TOPIC_OR_PARTITION) is the client's retry after
     * a leader change of a request the old leader had already committed: it succeeded.
     */
    private static boolean isError(Throwable failure, Errors error) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof ControllerException ce && ce.error() == error;
    }

    /** Waits until every running controller's image holds {@code topics} topics; returns its offset. */
    private long awaitAllImagesAt(int topics) throws InterruptedException {
        expectedTopics = Math.max(expectedTopics, topics);
        while (true) {
            boolean all = controllers.values().stream().allMatch(c -> c.image().topics().size() >= topics);
            if (all) {
                return latestImage().offset();
            }
            Thread.sleep(10);
        }
    }

    private MetadataImage latestImage() {
        return controllers.values().stream().map(QuorumController::image)
                .max((a, b) -> Long.compare(a.offset(), b.offset())).orElseThrow();
    }

    private static double percentileMs(long[] sortedNanos, double percentile) {
        int index = (int) Math.min(sortedNanos.length - 1, Math.ceil(percentile * sortedNanos.length) - 1);
        return sortedNanos[Math.max(0, index)] / 1e6;
    }

    /**
     * A free port below Linux's ephemeral range (32768 and up): the voters' ports are fixed before the nodes bind
     * them, and a port the kernel handed out as free could meanwhile become a client connection's local port.
     */
    private static int freePort() throws IOException {
        java.util.Random random = new java.util.Random();
        for (int attempt = 0; attempt < 100; attempt++) {
            int candidate = 20_000 + random.nextInt(12_000);
            try (ServerSocket socket = new ServerSocket(candidate)) {
                return socket.getLocalPort();
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free port in 20000-31999");
    }
}
