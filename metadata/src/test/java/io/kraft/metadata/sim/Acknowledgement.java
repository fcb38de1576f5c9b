package io.kraft.metadata.sim;

import io.kraft.metadata.controller.ProducerIdBlock;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.PartitionRegistration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/** A write a controller acknowledged, and what the committed log must therefore hold. */
interface Acknowledgement {

    /** Why the committed log does not hold the write, or null if it does. */
    String missingFrom(CommittedLog log);

    record BrokerRegistered(int brokerId, long brokerEpoch) implements Acknowledgement {
        @Override
        public String missingFrom(CommittedLog log) {
            return log.registered(brokerId, brokerEpoch) ? null : "broker " + brokerId + " was answered epoch "
                    + brokerEpoch + " but no such registration committed";
        }
    }

    record TopicCreated(String name, UUID topicId, int partitions) implements Acknowledgement {
        @Override
        public String missingFrom(CommittedLog log) {
            if (!name.equals(log.createdTopicName(topicId))) {
                return "topic " + name + " was answered created as " + topicId + " but no such topic committed";
            }
            for (int p = 0; p < partitions; p++) {
                if (log.partitionState(topicId, p, 0) == null) {
                    return "topic " + name + " was answered with " + partitions + " partitions but partition " + p
                            + " never committed";
                }
            }
            return null;
        }
    }

    record TopicDeleted(UUID topicId) implements Acknowledgement {
        @Override
        public String missingFrom(CommittedLog log) {
            return log.topicRemoved(topicId) ? null : "topic " + topicId + " was answered deleted but its removal "
                    + "never committed";
        }
    }

    /** Partitions added to the topic named {@code name}: whichever topic had that name when the request ran. */
    record PartitionsCreated(String name, int totalCount) implements Acknowledgement {
        @Override
        public String missingFrom(CommittedLog log) {
            for (UUID topicId : log.topicIdsNamed(name)) {
                if (log.partitionState(topicId, totalCount - 1, 0) != null) {
                    return null;
                }
            }
            return "topic " + name + " was answered grown to " + totalCount + " partitions but no topic of that "
                    + "name ever committed partition " + (totalCount - 1);
        }
    }

    record PartitionAltered(UUID topicId, int partitionId, PartitionRegistration answer) implements Acknowledgement {
        @Override
        public String missingFrom(CommittedLog log) {
            PartitionRegistration committed = log.partitionState(topicId, partitionId, answer.partitionEpoch());
            return answer.equals(committed) ? null : "AlterPartition of " + topicId + "-" + partitionId
                    + " was answered " + answer + " but the log holds " + committed + " at that partition epoch";
        }
    }

    /**
     * An IncrementalAlterConfigs answered with success. {@code unsetWhenSent}: the keys the committed image did not
     * hold when the request was sent; the controller may answer long after (once what it read commits), when a later
     * request may have set the key.
     */
    record ConfigsAltered(ConfigResource resource, Map<String, Optional<String>> changes, Set<String> unsetWhenSent)
            implements Acknowledgement {
        /** The change, with what the committed log held for the resource when it was sent. */
        static ConfigsAltered sent(CommittedLog log, ConfigResource resource, Map<String, Optional<String>> changes) {
            Map<String, String> held = log.image().configs().configs(resource);
            return new ConfigsAltered(resource, changes, changes.keySet().stream().filter(key -> !held.containsKey(key))
                    .collect(Collectors.toUnmodifiableSet()));
        }

        @Override
        public String missingFrom(CommittedLog log) {
            for (Map.Entry<String, Optional<String>> change : changes.entrySet()) {
                // A change to what the key already held writes nothing: that value must have committed before
                // (a later write may have changed it again by now). Keys start out unset; a deletion of a key unset
                // when it was sent may be answered after another request set it (it took effect before that one).
                boolean committed = log.configCommitted(resource, change.getKey(), change.getValue())
                        || (change.getValue().isEmpty() && (!log.configEverSet(resource, change.getKey())
                                || unsetWhenSent.contains(change.getKey())));
                if (!committed) {
                    return "config " + change.getKey() + "=" + change.getValue() + " of " + resource
                            + " was answered but never committed; committed config records: " + log.configHistory();
                }
            }
            return null;
        }
    }

    record ProducerIdsAllocated(ProducerIdBlock block) implements Acknowledgement {
        @Override
        public String missingFrom(CommittedLog log) {
            long next = log.image().producerIds().nextProducerId();
            return next > block.lastProducerId() ? null : "producer ids " + block + " were handed out but the "
                    + "committed next producer id is " + next;
        }
    }
}
