package io.kraft.broker.fetch;

import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.storage.errors.Errors;

/**
 * A partition of an incremental fetch session (KIP-227): what the client last asked for it, and what the
 * broker last told about it, so an incremental response can leave it out when nothing changed.
 */
final class CachedPartition {
    private FetchPartitionRequest request;
    private long highWatermark = -1;
    private long lastStableOffset = -1;
    private long logStartOffset = -1;

    CachedPartition(FetchPartitionRequest request) {
        this.request = request;
    }

    FetchPartitionRequest request() {
        return request;
    }

    void update(FetchPartitionRequest newRequest) {
        this.request = newRequest;
    }

    /**
     * Whether the client must hear about this read (records, an error, a diverging epoch, or moved offsets);
     * remembers the offsets told.
     */
    boolean absorbChanges(PartitionRead read) {
        boolean changed = read.sizeBytes() > 0 || read.error() != Errors.NONE || read.divergingEpoch().isPresent()
                || read.highWatermark() != highWatermark || read.lastStableOffset() != lastStableOffset
                || read.logStartOffset() != logStartOffset;
        if (read.error() == Errors.NONE) {
            highWatermark = read.highWatermark();
            lastStableOffset = read.lastStableOffset();
            logStartOffset = read.logStartOffset();
        }
        return changed;
    }
}
