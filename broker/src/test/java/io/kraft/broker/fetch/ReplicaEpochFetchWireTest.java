package io.kraft.broker.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.broker.StandaloneBroker;
import io.kraft.broker.WireClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.requests.FetchResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-903 on the wire: a follower's Fetch v15+ names its broker epoch in {@code replica_state}; one older than the
 * broker's registration comes from an earlier incarnation and is answered STALE_BROKER_EPOCH, as kafka-clients reads
 * it; the registered epoch, and older Fetch versions without one, are served.
 */
class ReplicaEpochFetchWireTest {
    private static final int FOLLOWER = 2;

    @TempDir
    Path logDir;

    private StandaloneBroker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private Errors fetchAs(WireClient client, UUID topicId, short version, long brokerEpoch) throws Exception {
        Map<TopicPartition, FetchRequest.PartitionData> partitions = Map.of(new TopicPartition("t", 0),
                new FetchRequest.PartitionData(new Uuid(topicId.getMostSignificantBits(),
                        topicId.getLeastSignificantBits()), 0, 0, 1 << 20, Optional.of(0), Optional.empty()));
        FetchResponse response = client.send(FetchRequest.Builder.forReplica(version, FOLLOWER, brokerEpoch, 0, 1,
                partitions).build(version));
        return Errors.forCode(response.data().responses().get(0).partitions().get(0).errorCode());
    }

    @Test
    void aFetchNamingAnOlderBrokerEpochIsAnsweredStaleBrokerEpoch() throws Exception {
        broker = new StandaloneBroker(logDir, Map.of());
        broker.registerBroker(FOLLOWER, 1); // broker epoch 1
        UUID topicId = broker.createTopic("t", UUID.randomUUID(), 1, Map.of(), List.of(1, FOLLOWER), List.of(1));
        try (WireClient client = new WireClient(broker.port())) {
            assertEquals(Errors.STALE_BROKER_EPOCH, fetchAs(client, topicId, (short) 17, 0));
            assertEquals(Errors.NONE, fetchAs(client, topicId, (short) 17, 1));
            assertEquals(Errors.NONE, fetchAs(client, topicId, (short) 15, -1), "no epoch: not checked");
        }
    }
}
