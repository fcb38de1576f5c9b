package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * Control managers plus a follower's image: every accepted result enters the managers' view as the active
 * controller's own uncommitted records, is applied to the image as a committed batch, and then commits under the
 * managers, as on a node.
 */
final class ControllerTestEnv {
    static final String CLUSTER_ID = "test-cluster";
    static final Map<String, SupportedRange> FEATURES = Map.of("metadata.version", new SupportedRange(1, 3),
            ElrRule.FEATURE, new SupportedRange(1, 1));

    final ControllerSettings settings;
    final ControlManagers managers;
    MetadataImage image = MetadataImage.EMPTY;
    /** Called with each committed batch and the offset of its last record. */
    BiConsumer<List<MetadataRecord>, Long> batchListener = (records, lastOffset) -> { };
    long nextOffset = 0;
    long nowMs = 1_000;

    ControllerTestEnv() {
        this(ControllerSettings.defaults(CLUSTER_ID), new Random(42));
    }

    ControllerTestEnv(ControllerSettings settings, Random random) {
        this.settings = settings;
        this.managers = new ControlManagers(settings, topicConfigResolver(), FEATURES, random);
    }

    static TopicConfigResolver topicConfigResolver() {
        return new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
    }

    /** Replays an accepted result's records into the managers and the image; returns the result. */
    <T> ControllerResult<T> commit(ControllerResult<T> result) {
        replay(result.records());
        return result;
    }

    void replay(List<MetadataRecord> records) {
        if (records.isEmpty()) {
            return;
        }
        managers.replayBatch(records, nextOffset, 1);
        MetadataDelta delta = new MetadataDelta(image);
        delta.replayBatch(records, nextOffset, 1);
        nextOffset += records.size();
        image = delta.apply();
        managers.committed(image);
        batchListener.accept(records, nextOffset - 1);
    }

    static BrokerRegistrationRequest registration(int brokerId, String rack) {
        return new BrokerRegistrationRequest(CLUSTER_ID, brokerId, UUID.nameUUIDFromBytes(("b" + brokerId).getBytes()),
                List.of(new Endpoint("PLAINTEXT", "localhost", 9000 + brokerId, "PLAINTEXT")),
                Optional.ofNullable(rack));
    }

    /** Registers and unfences a broker; returns its epoch. */
    long startBroker(int brokerId, String rack) {
        long epoch = commit(managers.registerBroker(registration(brokerId, rack), nowMs)).response();
        ControllerResult<BrokerHeartbeatReply> reply =
                commit(managers.heartbeat(new BrokerHeartbeatRequest(brokerId, epoch, nextOffset, false, false), nowMs));
        assertTrue(reply.isSuccess(), reply.error().toString());
        assertEquals(false, reply.response().isFenced());
        return epoch;
    }

    /** Registers and unfences a broker with these log directories (KIP-858); returns its epoch. */
    long startBrokerWithDirs(int brokerId, List<UUID> logDirs) {
        long epoch = commit(managers.registerBroker(registration(brokerId, null).withLogDirs(logDirs), nowMs))
                .response();
        ControllerResult<BrokerHeartbeatReply> reply = commit(managers.heartbeat(
                new BrokerHeartbeatRequest(brokerId, epoch, nextOffset, false, false), nowMs));
        assertEquals(false, reply.response().isFenced());
        return epoch;
    }

    /** A new incarnation of the broker after a crash, with these log directories: fenced, registered anew, unfenced. */
    long restartBroker(int brokerId, List<UUID> logDirs) {
        managers.connectionClosed(brokerId, nowMs);
        nowMs += settings.connectionLossGraceMs();
        commit(managers.fenceStaleBrokers(nowMs));
        BrokerRegistrationRequest request = new BrokerRegistrationRequest(CLUSTER_ID, brokerId, UUID.randomUUID(),
                registration(brokerId, null).listeners(), Optional.empty(), logDirs);
        long epoch = commit(managers.registerBroker(request, nowMs)).response();
        commit(managers.heartbeat(new BrokerHeartbeatRequest(brokerId, epoch, nextOffset, false, false), nowMs));
        return epoch;
    }
}
