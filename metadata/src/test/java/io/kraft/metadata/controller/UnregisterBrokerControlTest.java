package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.storage.errors.Errors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** UnregisterBroker in the controller: the registration goes, with the broker's ISR and ELR memberships. */
class UnregisterBrokerControlTest {
    private final ControllerTestEnv env = new ControllerTestEnv(ControllerSettings.defaults(ControllerTestEnv.CLUSTER_ID),
            new Random(3));
    private final Map<Integer, Long> epochs = new HashMap<>();

    @Test
    void anUnknownIdIsRefusedAndAStoppedBrokerLeavesTheMetadataAndItsPartitions() {
        assertTrue(env.commit(env.managers.updateFeature(ElrRule.FEATURE, 1)).isSuccess());
        for (int id = 1; id <= 3; id++) {
            epochs.put(id, env.startBroker(id, null));
        }
        UUID topicId = env.commit(env.managers.createTopic(new CreateTopicRequest("t", -1, -1,
                Map.of(0, List.of(1, 2, 3)), Map.of("min.insync.replicas", "3")))).response().topicId();

        ControllerResult<Void> unknown = env.managers.unregisterBroker(9);
        assertEquals(Errors.BROKER_ID_NOT_REGISTERED, unknown.error().error());
        assertTrue(unknown.records().isEmpty());

        env.commit(env.managers.heartbeat(new BrokerHeartbeatRequest(3, epochs.get(3), env.nextOffset, true, false),
                env.nowMs));
        assertEquals(List.of(3), env.image.topics().partition(topicId, 0).elr());
        assertTrue(env.commit(env.managers.unregisterBroker(3)).isSuccess());
        assertNull(env.image.cluster().broker(3));
        PartitionRegistration partition = env.image.topics().partition(topicId, 0);
        assertEquals(List.of(), partition.elr(), "an unregistered broker cannot come back with the records");
        assertEquals(List.of(1, 2), partition.isr());
        assertEquals(List.of(1, 2), env.managers.cluster().indexes().get("brokerIds"));

        assertTrue(env.commit(env.managers.unregisterBroker(2)).isSuccess(), "a live broker is not refused");
        assertEquals(List.of(1), env.image.topics().partition(topicId, 0).isr());
        assertEquals(Errors.BROKER_ID_NOT_REGISTERED, env.managers.heartbeat(new BrokerHeartbeatRequest(2,
                epochs.get(2), env.nextOffset, false, false), env.nowMs).error().error());
    }

    @Test
    void aNewControllerNeverHandsOutTheEpochOfAnUnregisteredBroker() {
        for (int id = 1; id <= 3; id++) {
            epochs.put(id, env.startBroker(id, null));
        }
        assertTrue(env.commit(env.managers.unregisterBroker(3)).isSuccess());
        // A controller failover: the new active controller starts from the committed image, without broker 3.
        ControlManagers takeover = ControlManagers.fromImage(env.image, env.settings,
                ControllerTestEnv.topicConfigResolver(), ControllerTestEnv.FEATURES, new Random(5));
        long highest = epochs.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        long newBroker = takeover.registerBroker(ControllerTestEnv.registration(4, null), env.nowMs).response();
        assertTrue(newBroker > highest, "epoch " + newBroker + " repeats or precedes " + highest);
        long returning = takeover.registerBroker(new BrokerRegistrationRequest(ControllerTestEnv.CLUSTER_ID, 3,
                UUID.randomUUID(), ControllerTestEnv.registration(3, null).listeners(), java.util.Optional.empty()),
                env.nowMs).response();
        assertTrue(returning > highest, "epoch " + returning + " repeats or precedes " + highest);
    }
}
