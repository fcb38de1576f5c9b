package io.kraft.cli.shell;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.proto.metadata.BrokerEndpoint;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.ProducerIdsRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.RemoveTopicRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Metadata records for shell tests: three brokers, two topics, configs, a feature and producer ids. */
final class SampleMetadata {
    static final UUID ORDERS_ID = new UUID(0x0123456789abcdefL, 0x0fedcba987654321L);
    static final UUID PAYMENTS_ID = new UUID(42, 43);
    static final UUID INCARNATION = new UUID(7, 8);

    private SampleMetadata() {
    }

    static MetadataRecord broker(int id, boolean fenced) {
        return MetadataRecords.of(RegisterBrokerRecord.newBuilder().setBrokerId(id)
                .setIncarnationId(Uuids.toProto(INCARNATION)).setBrokerEpoch(100 + id).setFenced(fenced)
                .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("localhost")
                        .setPort(9090 + id).setSecurityProtocol("PLAINTEXT"))
                .build());
    }

    static MetadataRecord topic(String name, UUID id) {
        return MetadataRecords.of(TopicRecord.newBuilder().setName(name).setTopicId(Uuids.toProto(id)).build());
    }

    static MetadataRecord partition(UUID topicId, int partitionId, int leader, List<Integer> replicas) {
        return MetadataRecords.of(PartitionRecord.newBuilder().setTopicId(Uuids.toProto(topicId))
                .setPartitionId(partitionId).addAllReplicas(replicas).addAllIsr(replicas).setLeader(leader)
                .build());
    }

    static MetadataRecord config(ConfigResource resource, String key, String value) {
        ConfigRecord.Builder record = ConfigRecord.newBuilder().setResourceType(resource.type().toProto())
                .setResourceName(resource.name()).setName(key);
        if (value != null) {
            record.setValue(value);
        }
        return MetadataRecords.of(record.build());
    }

    static MetadataRecord removeTopic(UUID id) {
        return MetadataRecords.of(RemoveTopicRecord.newBuilder().setTopicId(Uuids.toProto(id)).build());
    }

    /** Everything the sample image holds, in an order a controller could have written it. */
    static List<MetadataRecord> records() {
        List<MetadataRecord> records = new ArrayList<>();
        records.add(MetadataRecords.of(FeatureLevelRecord.newBuilder().setName("metadata.version").setLevel(3).build()));
        records.add(broker(1, false));
        records.add(broker(2, true));
        records.add(broker(10, false));
        records.add(topic("orders", ORDERS_ID));
        for (int p = 0; p < 12; p++) {
            records.add(partition(ORDERS_ID, p, 1, List.of(1, 10)));
        }
        records.add(MetadataRecords.of(PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(ORDERS_ID))
                .setPartitionId(0).setLeader(10).build()));
        records.add(topic("payments", PAYMENTS_ID));
        records.add(partition(PAYMENTS_ID, 0, 10, List.of(10)));
        records.add(config(ConfigResource.topic("payments"), "cleanup.policy", "compact"));
        records.add(config(ConfigResource.broker(""), "log.retention.ms", "1000"));
        records.add(config(ConfigResource.broker("1"), "log.flush.interval.messages", "5"));
        records.add(MetadataRecords.of(ProducerIdsRecord.newBuilder().setBrokerId(1).setBrokerEpoch(101)
                .setNextProducerId(5000).build()));
        return records;
    }

    static MetadataImage image() {
        List<MetadataRecord> records = records();
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replayBatch(records, 0, 4);
        return delta.apply();
    }

    static MetadataImage imageAt(MetadataProvenance provenance) {
        return MetadataDelta.imageOf(image().toRecords(), provenance);
    }
}
