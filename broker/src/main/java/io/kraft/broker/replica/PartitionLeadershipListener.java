package io.kraft.broker.replica;

import io.kraft.storage.log.TopicPartition;

/**
 * Told when this broker starts or stops leading a partition (for coordinators whose state lives in a
 * partition, such as the group coordinator's {@code __consumer_offsets}). Called on the metadata thread
 * after the replica manager applied the change; implementations must return quickly.
 */
public interface PartitionLeadershipListener {

    /** This broker now leads {@code partition} in {@code leaderEpoch}; its log is readable. */
    void onBecomeLeader(TopicPartition partition, int leaderEpoch);

    /** This broker no longer leads {@code partition} (it follows, or no longer hosts it). */
    void onResign(TopicPartition partition);
}
