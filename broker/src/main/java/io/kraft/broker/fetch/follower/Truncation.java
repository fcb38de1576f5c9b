package io.kraft.broker.fetch.follower;

import io.kraft.storage.log.EpochEndOffset;
import java.util.function.IntFunction;

/**
 * Where a follower truncates when its leader reports a diverging epoch (KIP-320): the leader's epoch E
 * (the largest it has at most the follower's last fetched epoch) ended at offset L. The follower's data
 * agrees with the leader's at most up to L, and at most up to where its own copy of epoch E (or the largest
 * epoch it has below E) ends; the smaller bound is safe. If the follower's epochs still differ above it,
 * the next fetch reports the next divergence, and each round the log end strictly decreases.
 */
public final class Truncation {
    private Truncation() {
    }

    /**
     * @param diverging        the leader's answer: epoch and its end offset on the leader
     * @param localEndOffsetFor the follower's own epoch lookup (its leader epoch cache)
     * @param logEndOffset     the follower's log end offset
     * @param highWatermark    the follower's high watermark (the fallback when the leader knows no epoch)
     * @return the offset to truncate to, at most {@code logEndOffset}
     */
    public static long offsetFor(EpochEndOffset diverging, IntFunction<EpochEndOffset> localEndOffsetFor,
                                 long logEndOffset, long highWatermark) {
        if (diverging.epoch() == EpochEndOffset.UNDEFINED_EPOCH || diverging.endOffset() < 0) {
            // The leader has no epoch at or below ours: only what was committed is known to be common.
            return Math.min(highWatermark, logEndOffset);
        }
        EpochEndOffset local = localEndOffsetFor.apply(diverging.epoch());
        long target = Math.min(diverging.endOffset(), logEndOffset);
        if (local.epoch() != EpochEndOffset.UNDEFINED_EPOCH && local.endOffset() >= 0) {
            target = Math.min(target, local.endOffset());
        }
        return target;
    }
}
