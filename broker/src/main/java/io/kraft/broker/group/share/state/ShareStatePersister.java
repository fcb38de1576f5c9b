package io.kraft.broker.group.share.state;

import io.kraft.broker.group.share.SharePartition;
import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.storage.errors.Errors;
import java.util.concurrent.CompletableFuture;

/**
 * Where a data partition's leader keeps its share partitions' delivery state (KIP-932's persister): the share
 * coordinator that leads the key's {@code __share_group_state} partition. Futures complete off the caller's thread.
 */
public interface ShareStatePersister {

    /** A read's answer: an error, or the last written state ({@code snapshot} null when none was ever written). */
    record ReadResult(Errors error, SharePartition.Snapshot snapshot) {
    }

    /** The durable state of {@code key}, asked by its leader at {@code leaderEpoch}. */
    CompletableFuture<ReadResult> read(SharePartitionKey key, int leaderEpoch);

    /** Writes {@code snapshot} as {@code key}'s state; completes with NONE once it is committed, else the error. */
    CompletableFuture<Errors> write(SharePartitionKey key, int leaderEpoch, SharePartition.Snapshot snapshot);
}
