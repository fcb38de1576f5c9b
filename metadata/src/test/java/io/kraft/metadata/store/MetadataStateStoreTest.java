package io.kraft.metadata.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.AlterPartitionRequest;
import io.kraft.metadata.controller.BrokerHeartbeatRequest;
import io.kraft.metadata.controller.BrokerRegistrationRequest;
import io.kraft.metadata.controller.ControlManagers;
import io.kraft.metadata.controller.ControllerResult;
import io.kraft.metadata.controller.ControllerSettings;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.controller.FeatureControlManager.SupportedRange;
import io.kraft.metadata.controller.ScramAlteration;
import io.kraft.metadata.controller.TransactionSettings;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.ScramMechanism;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TransactionState;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.RemoveTopicRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetadataStateStoreTest {
    private static final String CLUSTER_ID = "store-test";
    private static final int EPOCH = 5;

    @TempDir
    Path dir;

    /** Drives the control managers and applies every accepted batch to the store and to an image. */
    private final class Cluster {
        final ControlManagers managers = new ControlManagers(ControllerSettings.defaults(CLUSTER_ID),
                new TopicConfigResolver(BrokerLogSettings.from(
                        LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG))),
                Map.of("metadata.version", new SupportedRange(1, 2),
                        "eligible.leader.replicas.version", new SupportedRange(1, 1)), new Random(11));
        final MetadataStateStore store;
        final Map<Integer, Long> epochs = new HashMap<>();
        MetadataImage image = MetadataImage.EMPTY;
        long nextOffset = 0;

        Cluster(MetadataStateStore store) {
            this.store = store;
        }

        <T> T commit(ControllerResult<T> result) {
            assertTrue(result.isSuccess(), String.valueOf(result.error()));
            apply(result.records());
            return result.response();
        }

        void apply(List<MetadataRecord> records) {
            if (records.isEmpty()) {
                return;
            }
            managers.replayBatch(records, nextOffset, EPOCH);
            MetadataDelta delta = new MetadataDelta(image);
            delta.replayBatch(records, nextOffset, EPOCH);
            nextOffset += records.size();
            store.apply(delta);
            image = delta.apply();
            managers.committed(image);
        }

        void startBroker(int brokerId) {
            long epoch = commit(managers.registerBroker(new BrokerRegistrationRequest(CLUSTER_ID, brokerId,
                    UUID.randomUUID(), List.of(new Endpoint("PLAINTEXT", "h" + brokerId, 9092, "PLAINTEXT")),
                    Optional.of("rack" + brokerId)), 0));
            epochs.put(brokerId, epoch);
            commit(managers.heartbeat(new BrokerHeartbeatRequest(brokerId, epoch, nextOffset, false, false), 0));
        }

        /** A history touching every kind of state. */
        void buildHistory() {
            commit(managers.updateFeature("eligible.leader.replicas.version", 1));
            startBroker(1);
            startBroker(2);
            startBroker(3);
            // Broker 4 comes and is unregistered again: the store forgets it.
            startBroker(4);
            commit(managers.unregisterBroker(4));
            // min.insync.replicas 2: the ISR shrink below gives orders-0 eligible leader replicas (KIP-966).
            UUID orders = commit(managers.createTopic(new CreateTopicRequest("orders", 4, 3, Map.of(),
                    Map.of("retention.ms", "60000", "cleanup.policy", "compact", "min.insync.replicas", "2"))))
                    .topicId();
            commit(managers.createTopic(CreateTopicRequest.of("clicks", 2, 2)));
            commit(managers.createTopic(CreateTopicRequest.of("doomed", 3, 1)));
            commit(managers.createPartitions("clicks", 5, List.of()));
            PartitionRegistration p0 = image.topics().partition(orders, 0);
            List<Integer> shrunk = List.of(p0.leader());
            commit(managers.alterPartition(new AlterPartitionRequest(p0.leader(), epochs.get(p0.leader()), orders, 0,
                    p0.leaderEpoch(), shrunk, p0.partitionEpoch())));
            assertEquals(2, image.topics().partition(orders, 0).elr().size(), "the replicas left join the ELR");
            commit(managers.heartbeat(new BrokerHeartbeatRequest(2, epochs.get(2), nextOffset, true, false), 0));
            commit(managers.deleteTopic("doomed"));
            commit(managers.incrementalAlterConfigs(ConfigResource.broker(""),
                    Map.of("log.retention.ms", Optional.of("1000"))));
            commit(managers.allocateProducerIds(1, epochs.get(1)));
            commit(managers.allocateProducerIds(3, epochs.get(3)));
            commit(managers.updateFeature("metadata.version", 2));
            // Transactional ids: one decided with its partitions and group, one that expired.
            long now = 10_000;
            var open = commit(managers.transactions().initProducerId("open", 60_000, -1, (short) -1, now));
            commit(managers.transactions().addPartitions("open", open.producerId(), open.producerEpoch(),
                    Map.of("orders", List.of(1, 3)), now));
            commit(managers.transactions().addOffsets("open", open.producerId(), open.producerEpoch(), "g", "clicks",
                    0, now));
            commit(managers.transactions().endTransaction("open", open.producerId(), open.producerEpoch(), true, now));
            commit(managers.transactions().initProducerId("gone", 60_000, -1, (short) -1, now));
            commit(managers.transactions().expire(now + TransactionSettings.DEFAULTS.idExpirationMs()));
            // SCRAM credentials: alice's two, and bob's, deleted again.
            byte[] salt = {1, 2, 3};
            commit(managers.alterUserScramCredentials(List.of(
                    ScramAlteration.upsertion("alice", (byte) 1, 4096, salt, new byte[] {4}),
                    ScramAlteration.upsertion("alice", (byte) 2, 8192, salt, new byte[] {5}),
                    ScramAlteration.upsertion("bob", (byte) 1, 4096, salt, new byte[] {6}))));
            commit(managers.alterUserScramCredentials(List.of(ScramAlteration.deletion("bob", (byte) 1))));
            // ACLs: two created, one of them deleted again.
            commit(managers.createAcls(List.of(acl("orders"), acl("clicks"))));
            commit(managers.deleteAcls(List.of(new io.kraft.metadata.authorizer.AclFilter(
                    io.kraft.metadata.authorizer.ResourceType.TOPIC, "clicks",
                    io.kraft.metadata.authorizer.PatternType.LITERAL, null, null,
                    io.kraft.metadata.authorizer.AclOperation.ANY, io.kraft.metadata.authorizer.AclPermissionType.ANY))));
            // Client quotas: a user's two keys, one removed again, and a default client id's.
            var alice = io.kraft.metadata.quota.ClientQuotaEntity.user("alice");
            commit(managers.alterClientQuotas(List.of(new io.kraft.metadata.quota.ClientQuotaAlteration(alice, List.of(
                    new io.kraft.metadata.quota.ClientQuotaAlteration.Op("producer_byte_rate", 1024.0),
                    new io.kraft.metadata.quota.ClientQuotaAlteration.Op("consumer_byte_rate", 2048.0))),
                    new io.kraft.metadata.quota.ClientQuotaAlteration(io.kraft.metadata.quota.ClientQuotaEntity
                            .clientId(null), List.of(new io.kraft.metadata.quota.ClientQuotaAlteration.Op(
                                    "request_percentage", 25.0)))), false));
            commit(managers.alterClientQuotas(List.of(new io.kraft.metadata.quota.ClientQuotaAlteration(alice,
                    List.of(new io.kraft.metadata.quota.ClientQuotaAlteration.Op("consumer_byte_rate", null)))), false));
        }

        private static io.kraft.metadata.authorizer.StandardAcl acl(String topic) {
            return new io.kraft.metadata.authorizer.StandardAcl(io.kraft.metadata.authorizer.ResourceType.TOPIC, topic,
                    io.kraft.metadata.authorizer.PatternType.LITERAL, "User:alice", "*",
                    io.kraft.metadata.authorizer.AclOperation.READ, io.kraft.metadata.authorizer.AclPermissionType.ALLOW);
        }
    }

    @Test
    void loadsTheImageTheAppliedBatchesDescribe() {
        try (MetadataStateStore store = MetadataStateStore.open(dir.resolve("state"))) {
            assertEquals(MetadataProvenance.EMPTY, store.appliedPosition());
            assertEquals(MetadataImage.EMPTY, store.loadImage());
            Cluster cluster = new Cluster(store);
            cluster.buildHistory();
            assertEquals(new MetadataProvenance(cluster.nextOffset - 1, EPOCH), store.appliedPosition());
            MetadataImage loaded = store.loadImage();
            assertEquals(cluster.image, loaded);
            assertTrue(loaded.topics().topic("doomed") == null);
            assertTrue(loaded.cluster().broker(2).fenced());
            assertEquals(2002, loaded.producerIds().nextProducerId());
            assertEquals(TransactionState.PREPARE_COMMIT, loaded.transactions().transaction("open").state());
            assertEquals(3, loaded.transactions().transaction("open").partitions().size());
            assertEquals(EPOCH, loaded.transactions().transaction("open").coordinatorEpoch());
            assertTrue(loaded.transactions().transaction("gone") == null);
            assertEquals(List.of("orders"), loaded.acls().acls().values().stream()
                    .map(io.kraft.metadata.authorizer.StandardAcl::resourceName).toList());
            assertEquals(8192, loaded.scram().credential("alice", ScramMechanism.SCRAM_SHA_512).iterations());
            assertEquals(2, loaded.scram().credentials().size(), "bob's credential is gone");
            assertEquals(Map.of(io.kraft.metadata.quota.ClientQuotaEntity.user("alice"),
                    Map.of("producer_byte_rate", 1024.0), io.kraft.metadata.quota.ClientQuotaEntity.clientId(null),
                    Map.of("request_percentage", 25.0)), loaded.clientQuotas().quotas());
        }
    }

    @Test
    void theBulkSnapshotDeltaGivesWhatReplayingTheRecordsGives() {
        try (MetadataStateStore store = MetadataStateStore.open(dir.resolve("state"))) {
            Cluster cluster = new Cluster(store);
            cluster.buildHistory();
            MetadataDelta bulk = store.snapshotDelta();
            MetadataDelta replayed = MetadataDelta.fromSnapshot(store.snapshotRecords(), EPOCH);
            MetadataImage image = bulk.apply(store.appliedPosition());
            assertEquals(cluster.image, image);
            assertEquals(replayed.apply(store.appliedPosition()), image);
            // What the publishers see: every topic and partition is new, as after a replay from the empty image.
            assertEquals(replayed.topicsDelta().createdTopicIds(), bulk.topicsDelta().createdTopicIds());
            UUID orders = image.topics().topic("orders").id();
            assertEquals(replayed.topicsDelta().changedTopics().get(orders).partitionChanges(),
                    bulk.topicsDelta().changedTopics().get(orders).partitionChanges());
            assertEquals(replayed.topicsDelta().localChanges(1), bulk.topicsDelta().localChanges(1));

            // A batch folded into the delta later (publishers behind) changes its own copy, not the loaded image.
            PartitionRegistration before = image.topics().partition(orders, 1);
            bulk.replay(MetadataRecords.of(PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(orders))
                    .setPartitionId(1).setLeader(-1).build()), image.offset() + 1, EPOCH);
            MetadataImage after = bulk.apply();
            assertEquals(-1, after.topics().partition(orders, 1).leader());
            assertEquals(before, image.topics().partition(orders, 1), "the loaded image is unchanged");
            assertEquals(image.topics().topic("orders").partitions().size(),
                    after.topics().topic("orders").partitions().size());
        }
    }

    @Test
    void theBulkLoadReadsTopicsWhosePartitionsSpanTheDecodersChunks() {
        try (MetadataStateStore store = MetadataStateStore.open(dir.resolve("state"))) {
            List<MetadataRecord> records = new java.util.ArrayList<>();
            Random random = new Random(3);
            for (int t = 0; t < 700; t++) {
                UUID id = new UUID(random.nextLong(), random.nextLong());
                records.add(MetadataRecords.of(TopicRecord.newBuilder().setName("t" + t).setTopicId(Uuids.toProto(id))
                        .build()));
                // Some topics have no partitions at all; the others up to 13.
                for (int p = 0; p < t % 14; p++) {
                    records.add(MetadataRecords.of(io.kraft.proto.metadata.PartitionRecord.newBuilder()
                            .setTopicId(Uuids.toProto(id)).setPartitionId(p).addReplicas(1).addIsr(1).setLeader(1)
                            .build()));
                }
            }
            store.apply(records, records.size() - 1, EPOCH);
            MetadataImage bulk = store.snapshotDelta().apply(store.appliedPosition());
            assertEquals(MetadataDelta.imageOf(store.snapshotRecords(), store.appliedPosition()), bulk);
            assertEquals(700, bulk.topics().size());
            assertEquals(0, bulk.topics().topic("t14").partitions().size());
        }
    }

    @Test
    void checkpointReopensToAnEqualImageAndStaysFrozen() {
        Path checkpointDir = dir.resolve("snapshot-1");
        MetadataImage atCheckpoint;
        MetadataProvenance position;
        try (MetadataStateStore store = MetadataStateStore.open(dir.resolve("state"))) {
            Cluster cluster = new Cluster(store);
            cluster.buildHistory();
            atCheckpoint = cluster.image;
            position = store.checkpoint(checkpointDir);
            assertEquals(atCheckpoint.provenance(), position);
            cluster.commit(cluster.managers.deleteTopic("orders"));
            assertNotEquals(atCheckpoint, store.loadImage());
            assertThrows(MetadataStoreException.class, () -> store.checkpoint(checkpointDir));
        }
        try (MetadataStateStore restored = MetadataStateStore.open(checkpointDir)) {
            assertEquals(position, restored.appliedPosition());
            assertEquals(atCheckpoint, restored.loadImage());
        }
    }

    @Test
    void reopeningTheSameDirectoryKeepsEverything() {
        MetadataImage before;
        try (MetadataStateStore store = MetadataStateStore.open(dir.resolve("state"))) {
            Cluster cluster = new Cluster(store);
            cluster.buildHistory();
            before = cluster.image;
        }
        try (MetadataStateStore store = MetadataStateStore.open(dir.resolve("state"))) {
            assertEquals(before, store.loadImage());
            assertEquals(before.provenance(), store.appliedPosition());
        }
    }

    @Test
    void restartIsTheCheckpointPlusTheLogAfterIt() {
        try (MetadataStateStore store = MetadataStateStore.open(dir.resolve("state"))) {
            Cluster cluster = new Cluster(store);
            cluster.buildHistory();
            store.checkpoint(dir.resolve("snap"));
            long checkpointEnd = store.appliedPosition().offset();
            List<MetadataRecord> tail = cluster.managers.createTopic(CreateTopicRequest.of("late", 2, 1)).records();
            cluster.apply(tail);
            try (MetadataStateStore restarted = MetadataStateStore.open(dir.resolve("snap"))) {
                restarted.apply(tail, checkpointEnd + tail.size(), EPOCH);
                assertEquals(store.loadImage(), restarted.loadImage());
                assertEquals(cluster.image, restarted.loadImage());
            }
        }
    }

    @Test
    void aBatchThatCannotApplyWritesNothing() {
        try (MetadataStateStore store = MetadataStateStore.open(dir.resolve("state"))) {
            Cluster cluster = new Cluster(store);
            cluster.buildHistory();
            MetadataProvenance position = store.appliedPosition();
            UUID fresh = new UUID(7, 7);
            List<MetadataRecord> bad = List.of(
                    MetadataRecords.of(TopicRecord.newBuilder().setName("fresh").setTopicId(Uuids.toProto(fresh)).build()),
                    MetadataRecords.of(PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(fresh))
                            .setPartitionId(0).setIsr(BrokerIdList.newBuilder().addBrokerIds(1)).build()));
            assertThrows(InvalidMetadataRecordException.class, () -> store.apply(bad, position.offset() + 2, EPOCH));
            assertEquals(position, store.appliedPosition());
            assertEquals(cluster.image, store.loadImage());
            assertThrows(IllegalArgumentException.class, () -> store.apply(List.of(), position.offset(), EPOCH));
        }
    }

    @Test
    void removingATopicDropsPartitionsWrittenEarlierInTheSameBatch() {
        try (MetadataStateStore store = MetadataStateStore.open(dir.resolve("state"))) {
            UUID topicId = new UUID(3, 4);
            List<MetadataRecord> batch = List.of(
                    MetadataRecords.of(TopicRecord.newBuilder().setName("brief").setTopicId(Uuids.toProto(topicId)).build()),
                    new PartitionRegistration(List.of(1), List.of(1), 1, 0, 0).toRecord(topicId, 0),
                    new PartitionRegistration(List.of(1), List.of(1), 1, 0, 0).toRecord(topicId, Integer.MAX_VALUE),
                    MetadataRecords.of(RemoveTopicRecord.newBuilder().setTopicId(Uuids.toProto(topicId)).build()),
                    MetadataRecords.of(TopicRecord.newBuilder().setName("brief").setTopicId(Uuids.toProto(topicId)).build()));
            store.apply(batch, 4, 1);
            MetadataImage image = store.loadImage();
            assertEquals(0, image.topics().topic("brief").partitions().size());
        }
    }

    @Test
    void aCheckpointOpensReadOnlyForInspection() throws Exception {
        Path checkpointDir = dir.resolve("snapshot");
        MetadataImage expected;
        try (MetadataStateStore store = MetadataStateStore.open(dir.resolve("state"))) {
            Cluster cluster = new Cluster(store);
            cluster.buildHistory();
            expected = cluster.image;
            store.checkpoint(checkpointDir);
        }
        try (MetadataStateStore readOnly = MetadataStateStore.openReadOnly(checkpointDir)) {
            assertEquals(expected, readOnly.loadImage());
            assertThrows(IllegalStateException.class, () -> readOnly.apply(List.of(), Long.MAX_VALUE, 1));
            assertThrows(IllegalStateException.class, () -> readOnly.checkpoint(dir.resolve("other")));
        }
    }

    @Test
    void missingOrCorruptSnapshotsFailWithOneLine() throws Exception {
        MetadataStoreException missing = assertThrows(MetadataStoreException.class,
                () -> MetadataStateStore.openReadOnly(dir.resolve("nothing-here")));
        assertTrue(missing.getMessage().contains("nothing-here"));
        Path corrupt = dir.resolve("corrupt");
        java.nio.file.Files.createDirectories(corrupt);
        java.nio.file.Files.writeString(corrupt.resolve("CURRENT"), "MANIFEST-999999\n");
        MetadataStoreException unreadable = assertThrows(MetadataStoreException.class,
                () -> MetadataStateStore.openReadOnly(corrupt));
        assertTrue(unreadable.getMessage().contains(corrupt.toString()), unreadable.getMessage());
        assertTrue(!unreadable.getMessage().contains("\n"), unreadable.getMessage());
    }
}
