package io.kraft.broker.network;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.BrokerEndpoint;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.util.List;
import java.util.UUID;

/** Real metadata images for tests, replayed through {@link MetadataDelta} from metadata records. */
final class TestImages {
    static final String CLUSTER_ID = "kRaFtClUsTeRiD0000000w";
    static final UUID ORDERS_ID = UUID.fromString("6b1c2c35-9d4f-4a57-8a77-3f1f0c2d9e11");
    static final String ORDERS = "orders";

    private TestImages() {
    }

    /**
     * Broker 1 unfenced on PLAINTEXT at 127.0.0.1:{@code port}; broker 2 registered and unfenced but only on
     * another listener; broker 3 fenced. Topic "orders" has 3 partitions: 0 led by 1 with replicas [1, 3];
     * 1 led by 1 with replicas [1]; 2 led by 3 (fenced) with replicas [3, 1].
     */
    static MetadataImage oneBrokerWithOrders(int port) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        long offset = 0;
        delta.replay(register(1, "PLAINTEXT", port, false), offset++, 1);
        delta.replay(register(2, "INTERNAL", port + 1, false), offset++, 1);
        delta.replay(register(3, "PLAINTEXT", port + 2, true), offset++, 1);
        delta.replay(MetadataRecords.of(TopicRecord.newBuilder().setName(ORDERS)
                .setTopicId(Uuids.toProto(ORDERS_ID)).build()), offset++, 1);
        delta.replay(partition(0, List.of(1, 3), List.of(1), 1, 4), offset++, 1);
        delta.replay(partition(1, List.of(1), List.of(1), 1, 0), offset++, 1);
        delta.replay(partition(2, List.of(3, 1), List.of(3, 1), 3, 2), offset, 1);
        return delta.apply();
    }

    private static io.kraft.proto.metadata.MetadataRecord register(int brokerId, String listener, int port,
                                                                   boolean fenced) {
        return MetadataRecords.of(RegisterBrokerRecord.newBuilder()
                .setBrokerId(brokerId)
                .setIncarnationId(Uuids.toProto(new UUID(0L, brokerId)))
                .setBrokerEpoch(10 + brokerId)
                .addListeners(BrokerEndpoint.newBuilder().setName(listener).setHost("127.0.0.1")
                        .setPort(port).setSecurityProtocol("PLAINTEXT"))
                .setFenced(fenced)
                .build());
    }

    private static io.kraft.proto.metadata.MetadataRecord partition(int partitionId, List<Integer> replicas,
                                                                    List<Integer> isr, int leader, int leaderEpoch) {
        return MetadataRecords.of(PartitionRecord.newBuilder()
                .setTopicId(Uuids.toProto(ORDERS_ID)).setPartitionId(partitionId)
                .addAllReplicas(replicas).addAllIsr(isr)
                .setLeader(leader).setLeaderEpoch(leaderEpoch).setPartitionEpoch(1).build());
    }
}
