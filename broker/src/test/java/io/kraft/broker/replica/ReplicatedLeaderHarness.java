package io.kraft.broker.replica;

import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.fetch.FetchParams;
import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.config.LogConfigs;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.AlterPartitionRequest;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.proto.metadata.BrokerEndpoint;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionChangeRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.TopicRecord;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A replica manager with replication on, driven by hand: this broker (1) leads partition {@code t-0} of replicas
 * 1, 2, 3; followers' fetches are calls of {@link #followerFetch}; the clock is a number; ISR changes proposed to
 * the controller are collected and answered by the test. No fetcher runs (this broker follows nothing).
 */
final class ReplicatedLeaderHarness implements AutoCloseable {
    static final int LEADER = 1;
    static final TopicPartition TP = new TopicPartition("t", 0);

    final AtomicLong clock = new AtomicLong(1_000);
    final List<Proposal> proposals = new CopyOnWriteArrayList<>();
    final ReplicaManager replicaManager;
    final UUID topicId = UUID.randomUUID();
    private final AtomicLong nextOffset = new AtomicLong();
    private MetadataImage image = MetadataImage.EMPTY;

    /** An AlterPartition sent to the controller, with the answer the test gives. */
    record Proposal(AlterPartitionRequest request, CompletableFuture<PartitionRegistration> answer) {
    }

    ReplicatedLeaderHarness(Path logDir, List<Integer> isr) {
        Map<String, String> properties = new HashMap<>();
        properties.put(LogConfigs.LOG_DIRS, logDir.toString());
        EffectiveConfigs configs = new EffectiveConfigs(LEADER, properties);
        ReplicaManager.Replication replication = new ReplicaManager.Replication(
                ReplicationConfig.fromProperties(properties), request -> {
                    CompletableFuture<PartitionRegistration> answer = new CompletableFuture<>();
                    proposals.add(new Proposal(request, answer));
                    return answer;
                }, () -> 1L);
        replicaManager = new ReplicaManager(LEADER, ReplicaManagerConfig.fromProperties(properties), configs::topics,
                clock::get, Optional.of(replication));
        for (int broker = 1; broker <= 3; broker++) {
            registerBroker(broker, 1);
        }
        publish(List.of(MetadataRecords.of(TopicRecord.newBuilder().setName(TP.topic())
                        .setTopicId(Uuids.toProto(topicId)).build()),
                MetadataRecords.of(PartitionRecord.newBuilder().setTopicId(Uuids.toProto(topicId))
                        .setPartitionId(0).addAllReplicas(List.of(1, 2, 3)).addAllIsr(isr).setLeader(LEADER)
                        .setLeaderEpoch(0).setPartitionEpoch(0).build())));
    }

    /** Registers (or re-registers, a new incarnation) an unfenced broker at {@code brokerEpoch}. */
    void registerBroker(int brokerId, long brokerEpoch) {
        publish(List.of(MetadataRecords.of(RegisterBrokerRecord.newBuilder()
                .setBrokerId(brokerId)
                .setIncarnationId(Uuids.toProto(new UUID(brokerEpoch, brokerId)))
                .setBrokerEpoch(brokerEpoch)
                .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1")
                        .setPort(9000 + brokerId).setSecurityProtocol("PLAINTEXT"))
                .setFenced(false)
                .build())));
    }

    /** This broker leads again in the next leader epoch. */
    void bumpLeaderEpoch() {
        publish(List.of(MetadataRecords.of(PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(topicId))
                .setPartitionId(0).setLeader(LEADER).build())));
    }

    /** The controller committed an ISR (as a record in the metadata log). */
    void commitIsr(List<Integer> isr) {
        publish(List.of(MetadataRecords.of(PartitionChangeRecord.newBuilder().setTopicId(Uuids.toProto(topicId))
                .setPartitionId(0).setIsr(BrokerIdList.newBuilder().addAllBrokerIds(isr)).build())));
    }

    Partition partition() {
        return replicaManager.partition(TP).orElseThrow();
    }

    /** Appends {@code records} records as leader with acks=1. */
    void append(int records) throws Exception {
        replicaManager.appendRecords(1_000, (short) 1, false, Map.of(TP, ReplicaManagerTest.batch(records)))
                .get(15, TimeUnit.SECONDS);
    }

    /** A follower's fetch (Fetch v15+ with its broker epoch), answered at once. */
    PartitionRead followerFetch(int replicaId, long brokerEpoch, long fetchOffset, int lastFetchedEpoch)
            throws Exception {
        LinkedHashMap<TopicPartition, FetchPartitionRequest> requests = new LinkedHashMap<>();
        requests.put(TP, new FetchPartitionRequest(fetchOffset, partition().leaderEpoch(), lastFetchedEpoch, 1 << 20));
        return replicaManager.fetchMessages(new FetchParams(replicaId, 0, 1, 1 << 20, (byte) 0, brokerEpoch), requests)
                .get(15, TimeUnit.SECONDS).get(TP);
    }

    synchronized void publish(List<MetadataRecord> records) {
        MetadataDelta delta = new MetadataDelta(image);
        for (MetadataRecord record : records) {
            delta.replay(record, nextOffset.getAndIncrement(), 1);
        }
        MetadataImage next = delta.apply();
        replicaManager.publish(delta, next);
        image = next;
    }

    @Override
    public void close() {
        replicaManager.close();
    }
}
