package io.kraft.broker.quota;

import io.kraft.storage.log.TopicPartition;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * One side of replication throttling (KIP-73), a leader's or a follower's: which partitions are throttled here and
 * the byte rate their copying may use. Callers leave a throttled replica's data out while {@link #isExceeded()};
 * they {@link #record} the bytes of throttled partitions they copy. Thread-safe; the throttled set and the bound
 * are replaced whole when the metadata changes.
 */
public final class ReplicationQuota {
    /** In a topic's throttled partitions: every partition ({@code *}). */
    public static final int ALL = -1;

    private final LongSupplier clock;
    private final WindowedRate rate;
    private final LongAdder bytes = new LongAdder();
    private final LongAdder heldBack = new LongAdder();
    private volatile long bytesPerSecond = ReplicationQuotaConfig.UNLIMITED;
    private volatile Map<String, Set<Integer>> throttled = Map.of();

    public ReplicationQuota(QuotaWindows windows, LongSupplier clock) {
        this.clock = clock;
        this.rate = new WindowedRate(windows, clock.getAsLong());
    }

    public void setBound(long bytesPerSecond) {
        this.bytesPerSecond = bytesPerSecond;
    }

    public long bound() {
        return bytesPerSecond;
    }

    /** @param throttled per topic, the throttled partitions here, or a set holding {@link #ALL} */
    public void setThrottled(Map<String, Set<Integer>> throttled) {
        this.throttled = Map.copyOf(throttled);
    }

    public boolean isThrottled(TopicPartition tp) {
        Set<Integer> partitions = throttled.get(tp.topic());
        return partitions != null && (partitions.contains(ALL) || partitions.contains(tp.partition()));
    }

    /** Whether the copying of throttled partitions is above the bound (never with the default, unlimited). */
    public boolean isExceeded() {
        long bound = bytesPerSecond;
        return bound != ReplicationQuotaConfig.UNLIMITED && rate.perSecond(clock.getAsLong()) > bound;
    }

    /** Counts bytes of throttled partitions copied. */
    public void record(long copiedBytes) {
        if (copiedBytes > 0) {
            rate.record(copiedBytes, clock.getAsLong());
            bytes.add(copiedBytes);
        }
    }

    /** Counts one throttled partition left out of a fetch or an answer because the rate was exceeded. */
    public void recordHeldBack() {
        heldBack.increment();
    }

    /** Bytes per second of throttled copying, as measured now. */
    public double byteRate() {
        return rate.perSecond(clock.getAsLong());
    }

    /** Bytes of throttled partitions copied since the start. */
    public long bytes() {
        return bytes.sum();
    }

    /** How many times a throttled partition was left out since the start. */
    public long heldBackCount() {
        return heldBack.sum();
    }
}
