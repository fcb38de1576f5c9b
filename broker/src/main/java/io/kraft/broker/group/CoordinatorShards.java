package io.kraft.broker.group;

/**
 * A coordinator whose state is sharded over the partitions of an internal topic it loads as their leader
 * ({@code __consumer_offsets}, {@code __share_group_state}); driven by {@link OffsetsLeadershipListener}.
 */
public interface CoordinatorShards {

    /** The topic's real partition count, which places keys on partitions. */
    void partitionCount(int count);

    /** This broker leads {@code partition} at {@code leaderEpoch}: load it. */
    void onElected(int partition, int leaderEpoch);

    /** This broker no longer leads {@code partition}: drop its state. */
    void onResigned(int partition);
}
