package io.kraft.broker.lifecycle;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.BrokerHeartbeatReply;
import io.kraft.metadata.controller.BrokerHeartbeatRequest;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.OfflineLogDir;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.MetadataSource;
import io.kraft.proto.metadata.BrokerEndpoint;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A broker whose failed log directory the controller does not take out of its registration within
 * log.dir.failure.timeout.ms stops: its partitions there would stay led by a replica that cannot serve them.
 */
class BrokerLifecycleLogDirTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int BROKER_ID = 7;
    private static final long BROKER_EPOCH = 42;
    private static final UUID ONLINE = new UUID(0, 1);
    private static final UUID FAILED = new UUID(0, 2);
    private static final Path FAILED_PATH = Path.of("/disks/b/kraft");
    private static final long HEARTBEAT_INTERVAL_MS = 20;
    private static final long FAILURE_TIMEOUT_MS = 300;

    private final List<String> stops = new CopyOnWriteArrayList<>();
    private final List<BrokerHeartbeatRequest> heartbeats = new CopyOnWriteArrayList<>();
    private final AtomicInteger registrations = new AtomicInteger();
    private BrokerLifecycle lifecycle;

    @AfterEach
    void close() {
        if (lifecycle != null) {
            lifecycle.close();
        }
    }

    @Test
    void aFailedDirectoryTheControllerNeverTakesOfflineStopsTheBroker() {
        start(registeredWithLogDirs(List.of(ONLINE, FAILED)));
        await().atMost(WAIT).until(() -> !stops.isEmpty());
        assertEquals("Broker 7 could not get the controller to take failed log directory " + FAILED_PATH
                + " offline within log.dir.failure.timeout.ms=" + FAILURE_TIMEOUT_MS, stops.get(0));
        assertTrue(heartbeats.stream().allMatch(h -> h.offlineLogDirs().equals(List.of(report()))),
                "every heartbeat reported the directory");
    }

    @Test
    void aFailedDirectoryTheControllerTookOfflineDoesNot() {
        start(registeredWithLogDirs(List.of(ONLINE)));
        // Heartbeats at 20 ms intervals: the 30th comes well after the 300 ms timeout would have passed.
        await().atMost(WAIT).until(() -> heartbeats.size() >= 30);
        assertEquals(List.of(), stops);
        assertEquals(1, registrations.get());
    }

    private void start(MetadataImage committed) {
        Controller controller = (Controller) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Controller.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "registerBroker" -> {
                        registrations.incrementAndGet();
                        yield CompletableFuture.completedFuture(BROKER_EPOCH);
                    }
                    case "heartbeat" -> {
                        heartbeats.add((BrokerHeartbeatRequest) args[0]);
                        yield CompletableFuture.completedFuture(new BrokerHeartbeatReply(true, false, false));
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        MetadataSource metadata = new MetadataSource() {
            @Override
            public MetadataImage image() {
                return committed;
            }

            @Override
            public void register(MetadataPublisher publisher) {
            }
        };
        LogDirStatus logDirs = new LogDirStatus() {
            @Override
            public List<UUID> onlineLogDirs() {
                return List.of(ONLINE);
            }

            @Override
            public Map<Path, UUID> failedLogDirs() {
                return Map.of(FAILED_PATH, FAILED);
            }

            @Override
            public List<OfflineLogDir> offlineLogDirs() {
                return List.of(report());
            }
        };
        BrokerLifecycleConfig config = BrokerLifecycleConfig.fromProperties(Map.of(
                BrokerLifecycleConfig.BROKER_HEARTBEAT_INTERVAL_MS, Long.toString(HEARTBEAT_INTERVAL_MS),
                BrokerLifecycleConfig.LOG_DIR_FAILURE_TIMEOUT_MS, Long.toString(FAILURE_TIMEOUT_MS)));
        lifecycle = new BrokerLifecycle(controller, metadata, "cluster", BROKER_ID, List.of(), config, offset -> { },
                logDirs, stops::add);
        lifecycle.start();
    }

    private static OfflineLogDir report() {
        return new OfflineLogDir(FAILED, List.of());
    }

    /** The committed metadata: this broker registered in its current epoch with these directories online. */
    private static MetadataImage registeredWithLogDirs(List<UUID> logDirs) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        RegisterBrokerRecord.Builder record = RegisterBrokerRecord.newBuilder()
                .setBrokerId(BROKER_ID)
                .setIncarnationId(Uuids.toProto(new UUID(0, BROKER_ID)))
                .setBrokerEpoch(BROKER_EPOCH)
                .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1").setPort(9092)
                        .setSecurityProtocol("PLAINTEXT"));
        logDirs.forEach(id -> record.addLogDirs(Uuids.toProto(id)));
        delta.replay(MetadataRecords.of(record.build()), 0, 1);
        return delta.apply();
    }
}
