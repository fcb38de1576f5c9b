package io.kraft.broker.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.ClientQuotasImage;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.quota.ClientQuotaEntity;
import io.kraft.proto.metadata.ClientQuotaRecord;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Kafka's quota resolution order, windowed rates and throttle times, on a manual clock. */
class ClientQuotaManagerTest {
    private final AtomicLong clock = new AtomicLong(1_000_000);
    private final AtomicReference<MetadataImage> image = new AtomicReference<>(MetadataImage.EMPTY);
    private final ClientQuotaManager manager = new ClientQuotaManager("producer_byte_rate",
            () -> image.get().clientQuotas(), QuotaWindows.DEFAULT, clock::get,
            ClientQuotaManager.SensorListener.NONE);

    private void set(ClientQuotaEntity entity, double value) {
        MetadataDelta delta = new MetadataDelta(image.get());
        delta.replay(MetadataRecords.of(ClientQuotaRecord.newBuilder().addAllEntity(entity.toRecord())
                .setKey("producer_byte_rate").setValue(value).build()), image.get().offset() + 1, 1);
        image.set(delta.apply());
    }

    private QuotaResolution resolve(String user, String clientId) {
        ClientQuotasImage quotas = image.get().clientQuotas();
        return QuotaResolution.resolve(quotas, "producer_byte_rate", user, clientId);
    }

    @Test
    void resolutionFollowsKafkasOrderFromMostToLeastSpecific() {
        assertEquals(null, resolve("alice", "app"));
        set(ClientQuotaEntity.clientId(null), 8);
        assertEquals(new QuotaResolution(8, "", "app"), resolve("alice", "app"));
        set(ClientQuotaEntity.clientId("app"), 7);
        assertEquals(new QuotaResolution(7, "", "app"), resolve("alice", "app"));
        set(ClientQuotaEntity.user(null), 6);
        assertEquals(new QuotaResolution(6, "alice", ""), resolve("alice", "app"));
        set(ClientQuotaEntity.of(null, null), 5);
        assertEquals(new QuotaResolution(5, "alice", "app"), resolve("alice", "app"));
        set(ClientQuotaEntity.of(null, "app"), 4);
        assertEquals(new QuotaResolution(4, "alice", "app"), resolve("alice", "app"));
        set(ClientQuotaEntity.user("alice"), 3);
        assertEquals(new QuotaResolution(3, "alice", ""), resolve("alice", "app"));
        set(ClientQuotaEntity.of("alice", null), 2);
        assertEquals(new QuotaResolution(2, "alice", "app"), resolve("alice", "app"));
        set(ClientQuotaEntity.of("alice", "app"), 1);
        assertEquals(new QuotaResolution(1, "alice", "app"), resolve("alice", "app"));
        // Another user falls back to the defaults.
        assertEquals(new QuotaResolution(4, "bob", "app"), resolve("bob", "app"));
    }

    @Test
    void aClientWithinItsQuotaIsNotThrottledAndOneOverItIsForTheTimeToGetBackUnder() {
        set(ClientQuotaEntity.clientId("app"), 1000);
        // A fresh rate is measured over at least 10 of its 11 windows: 10 000 bytes at once are just within.
        assertEquals(0, manager.recordAndGetThrottleMs("ANONYMOUS", "app", 10_000));
        // 1 000 more: 11 000 over 10 s is 1 100 B/s, 10% over, so 10% of the 10 s window.
        assertEquals(1000, manager.recordAndGetThrottleMs("ANONYMOUS", "app", 1_000));
        assertEquals(0, manager.recordAndGetThrottleMs("ANONYMOUS", "other", 1_000_000), "no quota, no throttle");
        // Once every sample has aged out, the client is within its quota again.
        clock.addAndGet(11_000);
        assertEquals(0, manager.recordAndGetThrottleMs("ANONYMOUS", "app", 100));
        assertTrue(manager.rate("ANONYMOUS", "app") < 1000);
    }

    @Test
    void aChangedQuotaAppliesToTheRateMeasuredSoFar() {
        set(ClientQuotaEntity.clientId("app"), 1000);
        assertEquals(0, manager.recordAndGetThrottleMs("ANONYMOUS", "app", 5_000));
        set(ClientQuotaEntity.clientId("app"), 250);
        // 5 100 bytes over 10 s is 510 B/s against 250: (510 - 250) / 250 * 10 s.
        assertEquals(10_400, manager.recordAndGetThrottleMs("ANONYMOUS", "app", 100));
    }

    @Test
    void aSensorIdleForAnHourIsDropped() {
        set(ClientQuotaEntity.clientId(null), 1000);
        manager.recordAndGetThrottleMs("ANONYMOUS", "once", 10);
        manager.recordAndGetThrottleMs("ANONYMOUS", "often", 10);
        assertEquals(2, manager.sensorCount());
        clock.addAndGet(ClientQuotaManager.SENSOR_EXPIRY_MS / 2);
        manager.recordAndGetThrottleMs("ANONYMOUS", "often", 10);
        clock.addAndGet(ClientQuotaManager.SENSOR_EXPIRY_MS / 2 + 1);
        manager.recordAndGetThrottleMs("ANONYMOUS", "often", 10);
        assertEquals(1, manager.sensorCount(), "the client idle for an hour lost its sensor");
    }

    @Test
    void windowsComeFromKafkasKeys() {
        assertEquals(QuotaWindows.DEFAULT, QuotaWindows.fromProperties(java.util.Map.of()));
        assertEquals(new QuotaWindows(5, 2000), QuotaWindows.fromProperties(java.util.Map.of(
                QuotaWindows.NUM, "5", QuotaWindows.SIZE_SECONDS, "2")));
        org.junit.jupiter.api.Assertions.assertThrows(io.kraft.config.ConfigException.class,
                () -> QuotaWindows.fromProperties(java.util.Map.of(QuotaWindows.NUM, "0")));
    }
}
