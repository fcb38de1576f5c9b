package io.kraft.metadata.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.BrokerRegistrationChangeRecord;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.ConfigResourceType;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.FenceBrokerRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.ProducerIdsRecord;
import io.kraft.proto.metadata.RemoveTopicRecord;
import io.kraft.proto.metadata.TopicRecord;
import io.kraft.proto.metadata.UnfenceBrokerRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MetadataDeltaTest {
    private static final UUID ORDERS = new UUID(1, 1);
    private static final UUID PAYMENTS = new UUID(2, 2);

    private long nextOffset = 0;

    static MetadataRecord register(int brokerId, long epoch, String rack) {
        return new BrokerRegistration(brokerId, new UUID(brokerId, epoch), epoch,
                List.of(new Endpoint("PLAINTEXT", "host" + brokerId, 9092, "PLAINTEXT")),
                Optional.ofNullable(rack), true, false).toRecord();
    }

    static MetadataRecord unfence(int brokerId, long epoch) {
        return MetadataRecords.of(UnfenceBrokerRecord.newBuilder().setBrokerId(brokerId).setBrokerEpoch(epoch).build());
    }

    static MetadataRecord fence(int brokerId, long epoch) {
        return MetadataRecords.of(FenceBrokerRecord.newBuilder().setBrokerId(brokerId).setBrokerEpoch(epoch).build());
    }

    static MetadataRecord topic(String name, UUID id) {
        return MetadataRecords.of(TopicRecord.newBuilder().setName(name).setTopicId(Uuids.toProto(id)).build());
    }

    static MetadataRecord partition(UUID topicId, int partitionId, List<Integer> replicas, int leader) {
        return new PartitionRegistration(replicas, replicas, leader, 0, 0).toRecord(topicId, partitionId);
    }

    static MetadataRecord leaderChange(UUID topicId, int partitionId, int leader, List<Integer> isr) {
        return MetadataRecords.of(PartitionChangeRecord.newBuilder()
                .setTopicId(Uuids.toProto(topicId)).setPartitionId(partitionId).setLeader(leader)
                .setIsr(BrokerIdList.newBuilder().addAllBrokerIds(isr)).build());
    }

    static MetadataRecord isrChange(UUID topicId, int partitionId, List<Integer> isr) {
        return MetadataRecords.of(PartitionChangeRecord.newBuilder()
                .setTopicId(Uuids.toProto(topicId)).setPartitionId(partitionId)
                .setIsr(BrokerIdList.newBuilder().addAllBrokerIds(isr)).build());
    }

    static MetadataRecord removeTopic(UUID topicId) {
        return MetadataRecords.of(RemoveTopicRecord.newBuilder().setTopicId(Uuids.toProto(topicId)).build());
    }

    static MetadataRecord config(ConfigResourceType type, String name, String key, String value) {
        ConfigRecord.Builder builder = ConfigRecord.newBuilder().setResourceType(type).setResourceName(name).setName(key);
        if (value != null) {
            builder.setValue(value);
        }
        return MetadataRecords.of(builder.build());
    }

    private MetadataImage apply(MetadataImage image, MetadataRecord... records) {
        MetadataDelta delta = new MetadataDelta(image);
        for (MetadataRecord record : records) {
            delta.replay(record, nextOffset++, 3);
        }
        return delta.apply();
    }

    private MetadataImage threeBrokersTwoTopics() {
        return apply(MetadataImage.EMPTY,
                register(1, 10, "a"), register(2, 11, "b"), register(3, 12, null),
                unfence(1, 10), unfence(2, 11), unfence(3, 12),
                topic("orders", ORDERS), partition(ORDERS, 0, List.of(1, 2), 1), partition(ORDERS, 1, List.of(2, 3), 2),
                topic("payments", PAYMENTS), partition(PAYMENTS, 0, List.of(3, 1), 3));
    }

    @Test
    void brokersRegisterFenceAndUnfence() {
        MetadataImage image = threeBrokersTwoTopics();
        assertEquals(java.util.Set.of(1, 2, 3), image.cluster().unfencedBrokerIds());
        assertEquals(Optional.of("a"), image.cluster().broker(1).rack());
        assertEquals(Optional.empty(), image.cluster().broker(3).rack());

        MetadataDelta delta = new MetadataDelta(image);
        delta.replay(fence(2, 11), nextOffset++, 3);
        delta.replay(MetadataRecords.of(BrokerRegistrationChangeRecord.newBuilder()
                .setBrokerId(3).setBrokerEpoch(12).setInControlledShutdown(true).build()), nextOffset++, 3);
        assertEquals(java.util.Set.of(2, 3), delta.clusterDelta().changedBrokers().keySet());
        MetadataImage next = delta.apply();
        assertTrue(next.cluster().broker(2).fenced());
        assertTrue(next.cluster().broker(3).inControlledShutdown());
        assertFalse(image.cluster().broker(2).fenced(), "the old image is unchanged");

        MetadataImage reRegistered = apply(next, register(2, 20, "b"));
        assertEquals(20, reRegistered.cluster().broker(2).epoch());
        assertTrue(reRegistered.cluster().broker(2).fenced());
    }

    @Test
    void fenceWithAnotherBrokerEpochIsRejected() {
        MetadataImage image = threeBrokersTwoTopics();
        MetadataDelta delta = new MetadataDelta(image);
        assertThrows(InvalidMetadataRecordException.class, () -> delta.replay(fence(2, 99), 1000, 3));
        assertThrows(InvalidMetadataRecordException.class, () -> delta.replay(fence(9, 1), 1001, 3));
    }

    @Test
    void partitionChangesBumpEpochs() {
        MetadataImage image = threeBrokersTwoTopics();
        MetadataImage shrunk = apply(image, isrChange(ORDERS, 0, List.of(1)));
        PartitionRegistration p0 = shrunk.topics().partition(ORDERS, 0);
        assertEquals(new PartitionRegistration(List.of(1, 2), List.of(1), 1, 0, 1), p0);

        MetadataImage moved = apply(shrunk, leaderChange(ORDERS, 0, 2, List.of(2)));
        assertEquals(new PartitionRegistration(List.of(1, 2), List.of(2), 2, 1, 2), moved.topics().partition(ORDERS, 0));
        assertSame(shrunk.topics().topic(PAYMENTS), moved.topics().topic(PAYMENTS), "untouched topics are shared");
    }

    @Test
    void partitionOfUnknownTopicIsRejected() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        assertThrows(InvalidMetadataRecordException.class,
                () -> delta.replay(partition(ORDERS, 0, List.of(1), 1), 0, 1));
        delta.replay(topic("orders", ORDERS), 0, 1);
        assertThrows(InvalidMetadataRecordException.class,
                () -> delta.replay(isrChange(ORDERS, 5, List.of(1)), 1, 1));
        assertThrows(IllegalArgumentException.class, () -> delta.replay(topic("x", PAYMENTS), 0, 1),
                "offsets must grow");
    }

    @Test
    void topicsDeltaTellsCreatedDeletedAndChanged() {
        MetadataImage image = threeBrokersTwoTopics();
        UUID audit = new UUID(3, 3);
        MetadataDelta delta = new MetadataDelta(image);
        delta.replay(removeTopic(PAYMENTS), nextOffset++, 4);
        delta.replay(topic("audit", audit), nextOffset++, 4);
        delta.replay(partition(audit, 0, List.of(2, 1), 2), nextOffset++, 4);
        delta.replay(leaderChange(ORDERS, 0, 2, List.of(2)), nextOffset++, 4);

        TopicsDelta topics = delta.topicsDelta();
        assertEquals(java.util.Set.of(audit), topics.createdTopicIds());
        assertEquals(java.util.Set.of(PAYMENTS), topics.deletedTopicIds());
        assertEquals(java.util.Set.of(audit, ORDERS), topics.changedTopics().keySet());
        assertEquals(audit, topics.topicId("audit"));
        assertNull(topics.topicId("payments"));

        LocalReplicaChanges broker2 = topics.localChanges(2);
        assertEquals(java.util.Set.of(new TopicIdPartition(audit, 0), new TopicIdPartition(ORDERS, 0)),
                broker2.leaders().keySet());
        assertTrue(broker2.followers().isEmpty());
        assertTrue(broker2.deletes().isEmpty());

        LocalReplicaChanges broker1 = topics.localChanges(1);
        assertEquals(java.util.Set.of(new TopicIdPartition(audit, 0), new TopicIdPartition(ORDERS, 0)),
                broker1.followers().keySet());
        assertEquals(java.util.Set.of(new TopicIdPartition(PAYMENTS, 0)), broker1.deletes());

        MetadataImage next = delta.apply();
        assertNull(next.topics().topic("payments"));
        assertNull(next.topics().topic(PAYMENTS));
        assertEquals("audit", next.topics().topic(audit).name());
        assertEquals(new MetadataProvenance(nextOffset - 1, 4), next.provenance());
    }

    @Test
    void topicCreatedAndDeletedInOneDeltaLeavesNoTrace() {
        MetadataImage image = threeBrokersTwoTopics();
        UUID temp = new UUID(9, 9);
        MetadataDelta delta = new MetadataDelta(image);
        delta.replay(topic("temp", temp), nextOffset++, 3);
        delta.replay(partition(temp, 0, List.of(1), 1), nextOffset++, 3);
        delta.replay(removeTopic(temp), nextOffset++, 3);
        assertTrue(delta.topicsDelta().createdTopicIds().isEmpty());
        assertTrue(delta.topicsDelta().deletedTopicIds().isEmpty());
        assertTrue(delta.topicsDelta().localChanges(1).isEmpty());
        assertEquals(image.topics(), delta.apply().topics());
    }

    @Test
    void configsProducerIdsAndFeaturesApply() {
        MetadataImage image = apply(MetadataImage.EMPTY,
                config(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC, "orders", "retention.ms", "1000"),
                config(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC, "orders", "cleanup.policy", "compact"),
                config(ConfigResourceType.CONFIG_RESOURCE_TYPE_BROKER, "", "log.retention.ms", "5"),
                MetadataRecords.of(ProducerIdsRecord.newBuilder().setBrokerId(1).setNextProducerId(1000).build()),
                MetadataRecords.of(FeatureLevelRecord.newBuilder().setName("metadata.version").setLevel(2).build()));
        assertEquals(Map.of("retention.ms", "1000", "cleanup.policy", "compact"),
                image.configs().configs(ConfigResource.topic("orders")));
        assertEquals(Map.of("log.retention.ms", "5"), image.configs().configs(ConfigResource.broker("")));
        assertEquals(1000, image.producerIds().nextProducerId());
        assertEquals(2, image.features().level("metadata.version"));

        MetadataImage next = apply(image,
                config(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC, "orders", "retention.ms", null),
                config(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC, "orders", "cleanup.policy", null),
                MetadataRecords.of(FeatureLevelRecord.newBuilder().setName("metadata.version").setLevel(0).build()));
        assertEquals(Map.of(), next.configs().configs(ConfigResource.topic("orders")));
        assertFalse(next.configs().configs().containsKey(ConfigResource.topic("orders")), "empty resources vanish");
        assertEquals(0, next.features().level("metadata.version"));
        assertTrue(next.features().finalizedLevels().isEmpty());

        MetadataDelta backwards = new MetadataDelta(next);
        assertThrows(InvalidMetadataRecordException.class, () -> backwards.replay(MetadataRecords.of(
                ProducerIdsRecord.newBuilder().setNextProducerId(999).build()), nextOffset++, 3));
    }

    @Test
    void imageRebuildsFromItsOwnRecords() {
        MetadataImage image = apply(threeBrokersTwoTopics(),
                fence(3, 12),
                config(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC, "orders", "retention.ms", "1000"),
                MetadataRecords.of(ProducerIdsRecord.newBuilder().setNextProducerId(3000).build()),
                MetadataRecords.of(FeatureLevelRecord.newBuilder().setName("metadata.version").setLevel(1).build()),
                leaderChange(ORDERS, 1, 2, List.of(2)));
        MetadataImage rebuilt = MetadataDelta.imageOf(image.toRecords(), image.provenance());
        assertEquals(image, rebuilt);
        assertEquals(image.toRecords(), rebuilt.toRecords(), "snapshot records are in a stable order");
        assertEquals(MetadataImage.EMPTY, MetadataDelta.imageOf(List.of(), MetadataProvenance.EMPTY));
    }

    @Test
    void aSecondTopicWithTheSameNameIsRejected() {
        MetadataDelta delta = new MetadataDelta(threeBrokersTwoTopics());
        assertThrows(InvalidMetadataRecordException.class,
                () -> delta.replay(topic("orders", new UUID(8, 8)), nextOffset++, 3));
        delta.replay(removeTopic(ORDERS), nextOffset++, 3);
        delta.replay(topic("orders", new UUID(8, 8)), nextOffset++, 3);
        assertEquals(new UUID(8, 8), delta.apply().topics().topic("orders").id(), "a deleted name can be reused");
    }

    @Test
    void brokerRemovedFromAPartitionsReplicasDeletesItsReplica() {
        MetadataImage image = threeBrokersTwoTopics();
        MetadataDelta delta = new MetadataDelta(image);
        delta.replay(MetadataRecords.of(PartitionChangeRecord.newBuilder()
                .setTopicId(Uuids.toProto(ORDERS)).setPartitionId(1)
                .setReplicas(BrokerIdList.newBuilder().addAllBrokerIds(List.of(2, 1)))
                .setIsr(BrokerIdList.newBuilder().addAllBrokerIds(List.of(2))).build()), nextOffset++, 3);
        TopicIdPartition moved = new TopicIdPartition(ORDERS, 1);
        assertEquals(java.util.Set.of(moved), delta.topicsDelta().localChanges(3).deletes());
        assertEquals(java.util.Set.of(moved), delta.topicsDelta().localChanges(1).followers().keySet(),
                "a new replica starts following");
        assertTrue(delta.topicsDelta().localChanges(2).isEmpty(), "the leader and its epoch did not change");
    }
}
