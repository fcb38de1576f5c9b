package io.kraft.metadata.image;

import java.util.UUID;

/**
 * Entity by entity, what replaying a record into a {@link MetadataDelta} changed. An owner that keeps indexes over
 * the metadata (which partitions a broker is in the ISR of, replicas per broker) updates them from these calls, so
 * the meaning of each record stays written once, in the deltas. Called on the replaying thread, during the replay;
 * every method defaults to doing nothing.
 */
public interface MetadataChangeListener {
    /** Listens to nothing. */
    MetadataChangeListener NONE = new MetadataChangeListener() {
    };

    /**
     * A broker registration changed at {@code offset}; {@code before} is null for a broker's first registration,
     * {@code after} null when it is unregistered. A new broker epoch means a new registration (a new incarnation),
     * anything else a change of the registered one.
     */
    default void brokerChanged(BrokerRegistration before, BrokerRegistration after, long offset) {
    }

    /** A topic appeared; its partitions follow as {@link #partitionChanged} calls. */
    default void topicCreated(UUID topicId, String name) {
    }

    /** A topic went; each of its partitions was reported removed just before. */
    default void topicRemoved(UUID topicId, String name) {
    }

    /** A partition was created ({@code before} null), changed, or removed with its topic ({@code after} null). */
    default void partitionChanged(TopicIdPartition partition, PartitionRegistration before,
                                  PartitionRegistration after) {
    }

    /** A transactional id's state changed ({@code before} null: a new id; {@code after} null: the id was removed). */
    default void transactionChanged(TransactionMetadata before, TransactionMetadata after) {
    }

    /** An ACL was created ({@code before} null) or deleted ({@code after} null). */
    default void aclChanged(java.util.UUID id, io.kraft.metadata.authorizer.StandardAcl before,
                            io.kraft.metadata.authorizer.StandardAcl after) {
    }
}
