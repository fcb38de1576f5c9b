package io.kraft.broker.replica;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An acks=all produce waiting until every partition it wrote has its high watermark past the written
 * records (the whole ISR has them), answering REQUEST_TIMED_OUT for partitions still short at its
 * timeout, NOT_LEADER_OR_FOLLOWER for partitions whose leadership moved meanwhile and KAFKA_STORAGE_ERROR for those
 * whose log directory failed meanwhile.
 */
final class DelayedProduce extends DelayedOperation {
    private final Map<TopicPartition, PartitionProduceResult> results;
    /** Partitions still waiting, with the offset their high watermark must reach. */
    private final Map<TopicPartition, Long> requiredOffsets;
    private final Function<TopicPartition, Optional<Partition>> partitions;
    private final Predicate<TopicPartition> inFailedLogDir;
    private final Consumer<Map<TopicPartition, PartitionProduceResult>> onDone;

    /**
     * @param results         every partition's result so far (errors are final)
     * @param requiredOffsets partitions to wait for: the offset after their last written record
     * @param inFailedLogDir  whether a partition this broker no longer hosts went with a failed log directory
     */
    DelayedProduce(long timeoutMs, Map<TopicPartition, PartitionProduceResult> results,
                   Map<TopicPartition, Long> requiredOffsets, Function<TopicPartition, Optional<Partition>> partitions,
                   Predicate<TopicPartition> inFailedLogDir, Consumer<Map<TopicPartition, PartitionProduceResult>> onDone) {
        super(timeoutMs);
        this.results = new LinkedHashMap<>(results);
        this.requiredOffsets = new LinkedHashMap<>(requiredOffsets);
        this.partitions = partitions;
        this.inFailedLogDir = inFailedLogDir;
        this.onDone = onDone;
    }

    @Override
    protected boolean tryComplete() {
        var it = requiredOffsets.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<TopicPartition, Long> waiting = it.next();
            TopicPartition tp = waiting.getKey();
            Optional<Partition> partition = partitions.apply(tp);
            if (partition.isEmpty() && inFailedLogDir.test(tp)) {
                results.put(tp, results.get(tp).withError(Errors.KAFKA_STORAGE_ERROR,
                        "the log directory of " + tp + " failed before the records were replicated"));
                it.remove();
            } else if (partition.isEmpty() || !partition.get().isLeader()) {
                results.put(tp, results.get(tp).withError(Errors.NOT_LEADER_OR_FOLLOWER,
                        "leadership of " + tp + " moved before the records were replicated"));
                it.remove();
            } else if (partition.get().isReplicatedTo(waiting.getValue())) {
                if (partition.get().isUnderMinIsr()) {
                    results.put(tp, results.get(tp).withError(Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
                            "records of " + tp + " were written but the ISR shrank below min.insync.replicas"));
                }
                it.remove();
            }
        }
        return requiredOffsets.isEmpty() && forceComplete();
    }

    @Override
    protected void onComplete() {
        for (TopicPartition tp : requiredOffsets.keySet()) {
            results.put(tp, results.get(tp).withError(Errors.REQUEST_TIMED_OUT,
                    "records of " + tp + " were not replicated to the in-sync replicas within " + delayMs() + " ms"));
        }
        onDone.accept(results);
    }
}
