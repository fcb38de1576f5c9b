package io.kraft.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.raft.LogEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordFormatterTest {
    private static final String ORDERS = KafkaIds.text(SampleMetadata.ORDERS_ID);

    @Test
    void printsTheTypeAndEveryFieldWithIdsInKafkasForm() {
        assertEquals("TOPIC name=\"orders\" topicId=" + ORDERS,
                RecordFormatter.format(SampleMetadata.topic("orders", SampleMetadata.ORDERS_ID)));
        assertEquals("PARTITION topicId=" + ORDERS + " partitionId=2 replicas=[1,10] isr=[1,10] leader=1 "
                + "leaderEpoch=0 partitionEpoch=0 directories=[] addingReplicas=[] removingReplicas=[] "
                + "eligibleLeaderReplicas=[] lastKnownElr=[]",
                RecordFormatter.format(SampleMetadata.partition(SampleMetadata.ORDERS_ID, 2, 1, List.of(1, 10))));
        assertEquals("REGISTER_BROKER brokerId=2 incarnationId=" + KafkaIds.text(SampleMetadata.INCARNATION)
                + " brokerEpoch=102 listeners=[{name=\"PLAINTEXT\" host=\"localhost\" port=9092 "
                + "securityProtocol=\"PLAINTEXT\"}] fenced=true inControlledShutdown=false logDirs=[]",
                RecordFormatter.format(SampleMetadata.broker(2, true)));
    }

    @Test
    void absentOptionalFieldsAreLeftOutAndEnumsLoseTheirPrefix() {
        MetadataRecord change = MetadataRecords.of(PartitionChangeRecord.newBuilder()
                .setTopicId(Uuids.toProto(SampleMetadata.ORDERS_ID)).setPartitionId(0)
                .setIsr(BrokerIdList.newBuilder().addBrokerIds(10)).build());
        assertEquals("PARTITION_CHANGE topicId=" + ORDERS + " partitionId=0 isr=[10]", RecordFormatter.format(change));
        assertEquals("CONFIG resourceType=BROKER resourceName=\"\" name=\"log.retention.ms\" value=\"1000\"",
                RecordFormatter.format(SampleMetadata.config(ConfigResource.broker(""), "log.retention.ms", "1000")));
        assertEquals("CONFIG resourceType=TOPIC resourceName=\"t\" name=\"retention.ms\"",
                RecordFormatter.format(SampleMetadata.config(ConfigResource.topic("t"), "retention.ms", null)),
                "a deletion has no value");
    }

    @Test
    void logEntriesCarryOffsetAndEpochAndLeaderChangesNameTheLeader() {
        LogEntry topic = LogEntry.data(17, 3, SampleMetadata.removeTopic(SampleMetadata.ORDERS_ID).toByteArray());
        assertEquals("offset=17 epoch=3 REMOVE_TOPIC topicId=" + ORDERS, RecordFormatter.format(topic));
        assertEquals("offset=0 epoch=1 LEADER_CHANGE leaderId=3", RecordFormatter.format(LogEntry.leaderChange(0, 1, 3)));
        MetadataRecord future = SampleMetadata.removeTopic(SampleMetadata.ORDERS_ID).toBuilder().setVersion(2).build();
        assertEquals("REMOVE_TOPIC version=2 topicId=" + ORDERS, RecordFormatter.format(future));
    }
}
