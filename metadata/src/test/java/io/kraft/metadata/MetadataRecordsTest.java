package io.kraft.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.InvalidProtocolBufferException;
import io.kraft.proto.metadata.BrokerEndpoint;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.BrokerRegistrationChangeRecord;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.ConfigResourceType;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.proto.metadata.FenceBrokerRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.ProducerIdsRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.RemoveTopicRecord;
import io.kraft.proto.metadata.TopicRecord;
import io.kraft.proto.metadata.UnfenceBrokerRecord;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class MetadataRecordsTest {
    private static final UUID TOPIC_ID = UUID.fromString("6f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9");

    static List<MetadataRecord> oneOfEachType() {
        return List.of(
                MetadataRecords.of(RegisterBrokerRecord.newBuilder()
                        .setBrokerId(1)
                        .setIncarnationId(Uuids.toProto(UUID.randomUUID()))
                        .setBrokerEpoch(7)
                        .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("localhost")
                                .setPort(9092).setSecurityProtocol("PLAINTEXT"))
                        .setRack("rack-a")
                        .setFenced(true)
                        .build()),
                MetadataRecords.of(BrokerRegistrationChangeRecord.newBuilder()
                        .setBrokerId(1).setBrokerEpoch(7).setInControlledShutdown(true).build()),
                MetadataRecords.of(FenceBrokerRecord.newBuilder().setBrokerId(1).setBrokerEpoch(7).build()),
                MetadataRecords.of(UnfenceBrokerRecord.newBuilder().setBrokerId(1).setBrokerEpoch(7).build()),
                MetadataRecords.of(TopicRecord.newBuilder().setName("orders").setTopicId(Uuids.toProto(TOPIC_ID)).build()),
                MetadataRecords.of(PartitionRecord.newBuilder()
                        .setTopicId(Uuids.toProto(TOPIC_ID)).setPartitionId(3)
                        .addAllReplicas(List.of(1, 2, 3)).addAllIsr(List.of(1, 2))
                        .setLeader(1).setLeaderEpoch(4).setPartitionEpoch(9)
                        .addEligibleLeaderReplicas(3).build()),
                MetadataRecords.of(PartitionChangeRecord.newBuilder()
                        .setTopicId(Uuids.toProto(TOPIC_ID)).setPartitionId(3)
                        .setLeader(2).setIsr(BrokerIdList.newBuilder().addBrokerIds(2)).build()),
                MetadataRecords.of(RemoveTopicRecord.newBuilder().setTopicId(Uuids.toProto(TOPIC_ID)).build()),
                MetadataRecords.of(ConfigRecord.newBuilder()
                        .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC).setResourceName("orders")
                        .setName("retention.ms").setValue("1000").build()),
                MetadataRecords.of(ProducerIdsRecord.newBuilder()
                        .setBrokerId(1).setBrokerEpoch(7).setNextProducerId(2000).build()),
                MetadataRecords.of(FeatureLevelRecord.newBuilder().setName("metadata.version").setLevel(1).build()),
                MetadataRecords.of(io.kraft.proto.metadata.TransactionRecord.newBuilder().setTransactionalId("t")
                        .setProducerId(7).setProducerEpoch(2).setPreviousProducerId(-1).setPreviousProducerEpoch(-1)
                        .setTimeoutMs(60_000)
                        .setState(io.kraft.proto.metadata.TransactionState.TRANSACTION_STATE_ONGOING)
                        .addAddedPartitions(io.kraft.proto.metadata.TopicPartitions.newBuilder()
                                .setTopicId(Uuids.toProto(TOPIC_ID)).addPartitions(0).addPartitions(3))
                        .addAddedGroups("g").setStartTimeMs(1_000).setUpdateTimeMs(1_500).build()),
                MetadataRecords.of(io.kraft.proto.metadata.RemoveTransactionRecord.newBuilder()
                        .setTransactionalId("t").build()),
                MetadataRecords.of(io.kraft.proto.metadata.AccessControlEntryRecord.newBuilder()
                        .setId(Uuids.toProto(TOPIC_ID)).setResourceType(2).setResourceName("orders").setPatternType(3)
                        .setPrincipal("User:alice").setHost("*").setOperation(3).setPermissionType(3).build()),
                MetadataRecords.of(io.kraft.proto.metadata.RemoveAccessControlEntryRecord.newBuilder()
                        .setId(Uuids.toProto(TOPIC_ID)).build()),
                io.kraft.metadata.image.ScramFunctions.credentialForPassword("alice",
                        io.kraft.metadata.image.ScramMechanism.SCRAM_SHA_512, "pw", 4096).toRecord(),
                MetadataRecords.of(io.kraft.proto.metadata.RemoveUserScramCredentialRecord.newBuilder()
                        .setName("alice")
                        .setMechanism(io.kraft.proto.metadata.ScramMechanismType.SCRAM_MECHANISM_TYPE_SCRAM_SHA_512)
                        .build()),
                MetadataRecords.of(io.kraft.proto.metadata.ClientQuotaRecord.newBuilder()
                        .addAllEntity(io.kraft.metadata.quota.ClientQuotaEntity.of("alice", null).toRecord())
                        .setKey("producer_byte_rate").setValue(1048576).build()),
                MetadataRecords.of(io.kraft.proto.metadata.UnregisterBrokerRecord.newBuilder()
                        .setBrokerId(1).setBrokerEpoch(7).build()));
    }

    @Test
    void everyRecordTypeRoundTripsThroughBytes() throws InvalidProtocolBufferException {
        List<MetadataRecord> records = oneOfEachType();
        assertEquals(MetadataRecord.RecordCase.values().length - 1, records.stream()
                .map(MetadataRecord::getRecordCase).distinct().count(), "one record of every type");
        for (MetadataRecord record : records) {
            MetadataRecord read = MetadataRecord.parseFrom(record.toByteArray());
            assertEquals(record, read);
            assertEquals(MetadataRecords.CURRENT_VERSION, read.getVersion());
            assertEquals(record.getRecordCase(), MetadataRecords.checkReadable(read));
        }
    }

    @Test
    void optionalFieldsKeepTheirPresence() throws InvalidProtocolBufferException {
        MetadataRecord deletion = MetadataRecords.of(ConfigRecord.newBuilder()
                .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TYPE_BROKER).setResourceName("")
                .setName("log.retention.ms").build());
        assertFalse(MetadataRecord.parseFrom(deletion.toByteArray()).getConfig().hasValue());

        MetadataRecord emptyValue = MetadataRecords.of(ConfigRecord.newBuilder()
                .setResourceType(ConfigResourceType.CONFIG_RESOURCE_TYPE_BROKER).setName("x").setValue("").build());
        assertTrue(MetadataRecord.parseFrom(emptyValue.toByteArray()).getConfig().hasValue());

        PartitionChangeRecord emptyIsr = MetadataRecord.parseFrom(MetadataRecords.of(PartitionChangeRecord.newBuilder()
                .setIsr(BrokerIdList.getDefaultInstance()).build()).toByteArray()).getPartitionChange();
        assertTrue(emptyIsr.hasIsr());
        assertFalse(emptyIsr.hasReplicas());
        assertFalse(emptyIsr.hasLeader());

        RegisterBrokerRecord noRack = MetadataRecord.parseFrom(MetadataRecords.of(RegisterBrokerRecord.newBuilder()
                .setBrokerId(3).build()).toByteArray()).getRegisterBroker();
        assertFalse(noRack.hasRack());
    }

    @Test
    void uuidsRoundTrip() {
        UUID id = UUID.randomUUID();
        assertEquals(id, Uuids.fromProto(Uuids.toProto(id)));
        assertEquals(TOPIC_ID, Uuids.fromProto(Uuids.toProto(TOPIC_ID)));
    }

    @Test
    void unknownVersionsAndEmptyEnvelopesAreRejected() {
        MetadataRecord topic = oneOfEachType().get(4);
        assertThrows(InvalidMetadataRecordException.class,
                () -> MetadataRecords.checkReadable(topic.toBuilder().setVersion(MetadataRecords.CURRENT_VERSION + 1).build()));
        assertThrows(InvalidMetadataRecordException.class,
                () -> MetadataRecords.checkReadable(topic.toBuilder().setVersion(0).build()));
        InvalidMetadataRecordException empty = assertThrows(InvalidMetadataRecordException.class,
                () -> MetadataRecords.checkReadable(MetadataRecord.newBuilder().setVersion(1).build()));
        assertTrue(empty.getMessage().contains("record type"));
    }
}
