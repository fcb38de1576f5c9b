package io.kraft.metadata.sim;

import com.google.protobuf.InvalidProtocolBufferException;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataChangeListener;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.metadata.image.TransactionState;
import io.kraft.proto.metadata.ConfigRecord;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The simulation's oracle: every committed data record, replayed once in log order as it commits, and indexed for the
 * invariants (what was ever committed: topics created and removed, broker registrations, partition states, config
 * values). It also notes what must never be seen: two leaders for one partition's leader epoch (in the log or in any
 * controller's image, see {@link #noteLeader}), a registration whose broker epoch does not grow.
 */
final class CommittedLog {
    record PartitionEpoch(UUID topicId, int partitionId, int partitionEpoch) {
    }

    record LeaderEpoch(UUID topicId, int partitionId, int leaderEpoch) {
    }

    record ConfigValue(ConfigResource resource, String key, Optional<String> value) {
    }

    private MetadataImage image = MetadataImage.EMPTY;
    private long records;
    private final Map<UUID, String> createdTopics = new HashMap<>();
    private final Set<UUID> removedTopics = new HashSet<>();
    /** Every broker epoch ever registered, by broker. */
    private final Map<Integer, Set<Long>> registrations = new HashMap<>();
    private long highestRegisteredEpoch;
    private final Map<PartitionEpoch, PartitionRegistration> partitionStates = new HashMap<>();
    private final Map<LeaderEpoch, Integer> leaders = new HashMap<>();
    private final Set<ConfigValue> configValues = new HashSet<>();
    private final List<String> configHistory = new ArrayList<>();
    private final List<String> leaderConflicts = new ArrayList<>();
    private final List<String> epochRegressions = new ArrayList<>();
    private final List<String> unusableLeaders = new ArrayList<>();
    private final List<String> transactionViolations = new ArrayList<>();
    private long transactionsCompleted;

    private final MetadataChangeListener indexer = new MetadataChangeListener() {
        @Override
        public void brokerChanged(BrokerRegistration before, BrokerRegistration after, long offset) {
            if (before == null || before.epoch() != after.epoch()) {
                if (after.epoch() <= highestRegisteredEpoch) {
                    epochRegressions.add("broker " + after.id() + " registered at offset " + offset + " with epoch "
                            + after.epoch() + ", not above the highest epoch before, " + highestRegisteredEpoch);
                }
                highestRegisteredEpoch = Math.max(highestRegisteredEpoch, after.epoch());
                registrations.computeIfAbsent(after.id(), id -> new HashSet<>()).add(after.epoch());
            }
        }

        @Override
        public void topicCreated(UUID topicId, String name) {
            createdTopics.put(topicId, name);
        }

        @Override
        public void topicRemoved(UUID topicId, String name) {
            removedTopics.add(topicId);
        }

        @Override
        public void partitionChanged(TopicIdPartition partition, PartitionRegistration before,
                                     PartitionRegistration after) {
            if (after == null) {
                return;
            }
            partitionStates.put(new PartitionEpoch(partition.topicId(), partition.partition(), after.partitionEpoch()),
                    after);
            noteLeader("the committed log", partition.topicId(), partition.partition(), after);
        }

        @Override
        public void transactionChanged(TransactionMetadata before, TransactionMetadata after) {
            if (before == null || after == null) {
                return;
            }
            String id = after.transactionalId();
            if (after.producerId() < before.producerId()
                    || (after.producerId() == before.producerId() && after.producerEpoch() < before.producerEpoch())) {
                transactionViolations.add("transactional id " + id + " went from producer " + before.producerId()
                        + " epoch " + before.producerEpoch() + " back to " + after.producerId() + " epoch "
                        + after.producerEpoch());
            }
            TransactionState decided = switch (before.state()) {
                case PREPARE_COMMIT -> TransactionState.COMPLETE_COMMIT;
                case PREPARE_ABORT -> TransactionState.COMPLETE_ABORT;
                default -> null;
            };
            // A version 2 end that used up the epochs completes at its next producer id, epoch 0.
            boolean rolled = before.nextProducerId() >= 0;
            long completedId = rolled ? before.nextProducerId() : before.producerId();
            short completedEpoch = rolled ? 0 : before.producerEpoch();
            if (decided != null && (after.state() != decided || after.producerEpoch() != completedEpoch
                    || after.producerId() != completedId)) {
                transactionViolations.add("transactional id " + id + " in " + before.state().kafkaName()
                        + " at epoch " + before.producerEpoch() + " moved to " + after.state().kafkaName()
                        + " at epoch " + after.producerEpoch() + " instead of completing its decision");
            }
            if (decided != null) {
                transactionsCompleted++;
            }
            if (before.state() == TransactionState.ONGOING && after.state().isPrepare()
                    && after.transactionVersion() >= 2 && after.producerEpoch() != before.producerEpoch() + 1) {
                transactionViolations.add("transactional id " + id + " decided a version 2 transaction of epoch "
                        + before.producerEpoch() + " at epoch " + after.producerEpoch() + ", not the next one");
            }
        }
    };

    /** Broken transaction rules seen in the committed log: a decision not kept, a producer epoch going back. */
    List<String> transactionViolations() {
        return transactionViolations;
    }

    /** Transactions the committed log completed (commit or abort). */
    long transactionsCompleted() {
        return transactionsCompleted;
    }

    /** Records the leader of a partition's leader epoch; a second, different leader for it is a problem. */
    void noteLeader(String where, UUID topicId, int partitionId, PartitionRegistration partition) {
        if (!partition.hasLeader()) {
            return;
        }
        Integer known = leaders.putIfAbsent(new LeaderEpoch(topicId, partitionId, partition.leaderEpoch()),
                partition.leader());
        if (known != null && known != partition.leader()) {
            leaderConflicts.add(where + " names leader " + partition.leader() + " for partition " + partitionId + " of "
                    + topicId + " in leader epoch " + partition.leaderEpoch() + ", which broker " + known + " led");
        }
    }

    /**
     * Records committed, in log order: consecutive data records from {@code firstOffset} in {@code epoch};
     * {@code endsBatch} tells whether the last one ends an append batch (one request's records).
     */
    void commit(List<byte[]> data, long firstOffset, int epoch, boolean endsBatch) {
        MetadataDelta delta = new MetadataDelta(image, indexer);
        long offset = firstOffset;
        for (byte[] bytes : data) {
            MetadataRecord record;
            try {
                record = MetadataRecord.parseFrom(bytes);
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("committed a record that is not metadata at " + offset, e);
            }
            if (record.hasConfig()) {
                ConfigRecord config = record.getConfig();
                ConfigValue value = new ConfigValue(new ConfigResource(
                        ConfigResource.Type.fromProto(config.getResourceType()), config.getResourceName()),
                        config.getName(), config.hasValue() ? Optional.of(config.getValue()) : Optional.empty());
                configValues.add(value);
                configHistory.add(offset + ": " + value);
            }
            delta.replay(record, offset++, epoch);
            records++;
        }
        image = delta.apply();
        if (endsBatch) {
            checkLeadersUsable();
        }
    }

    // A request's records move leaderships off brokers in the same batch that fences them or starts their shutdown.
    private void checkLeadersUsable() {
        for (TopicImage topic : image.topics().topicsById().values()) {
            topic.partitions().forEach((partitionId, partition) -> {
                if (!partition.hasLeader()) {
                    return;
                }
                BrokerRegistration leader = image.cluster().broker(partition.leader());
                if (leader == null || leader.fenced() || leader.inControlledShutdown()) {
                    unusableLeaders.add("after the batch ending at offset " + image.offset() + " partition "
                            + topic.name() + "-" + partitionId + " is led by " + (leader == null
                            ? "unregistered broker " + partition.leader() : leader));
                }
            });
        }
    }

    /** The image of the whole committed log. */
    MetadataImage image() {
        return image;
    }

    long records() {
        return records;
    }

    String createdTopicName(UUID topicId) {
        return createdTopics.get(topicId);
    }

    /** Every topic id ever created with that name. */
    List<UUID> topicIdsNamed(String name) {
        return createdTopics.entrySet().stream().filter(e -> e.getValue().equals(name)).map(Map.Entry::getKey)
                .sorted().toList();
    }

    boolean topicRemoved(UUID topicId) {
        return removedTopics.contains(topicId);
    }

    boolean registered(int brokerId, long brokerEpoch) {
        return registrations.getOrDefault(brokerId, Set.of()).contains(brokerEpoch);
    }

    PartitionRegistration partitionState(UUID topicId, int partitionId, int partitionEpoch) {
        return partitionStates.get(new PartitionEpoch(topicId, partitionId, partitionEpoch));
    }

    boolean configCommitted(ConfigResource resource, String key, Optional<String> value) {
        return configValues.contains(new ConfigValue(resource, key, value));
    }

    /** Whether any committed record ever gave the key a value. */
    boolean configEverSet(ConfigResource resource, String key) {
        return configValues.stream().anyMatch(v -> v.resource().equals(resource) && v.key().equals(key)
                && v.value().isPresent());
    }

    /** Every config record committed, in log order (for failure reports). */
    List<String> configHistory() {
        return configHistory;
    }

    /** Partition leader epochs that were given two different leaders, oldest first. */
    List<String> leaderConflicts() {
        return leaderConflicts;
    }

    /** Partitions led by a fenced, shutting down or unregistered broker at the end of a batch, oldest first. */
    List<String> unusableLeaders() {
        return unusableLeaders;
    }

    /** Broker registrations whose epoch was not above every epoch registered before, oldest first. */
    List<String> epochRegressions() {
        return epochRegressions;
    }
}
