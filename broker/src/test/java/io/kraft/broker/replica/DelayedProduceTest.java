package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What an acks=all produce answers for a partition this broker stopped hosting while the produce waited. */
class DelayedProduceTest {
    private static final TopicPartition TP = new TopicPartition("orders", 0);

    @Test
    void aPartitionWhoseLogDirectoryFailedAnswersKafkaStorageError() {
        assertEquals(Errors.KAFKA_STORAGE_ERROR, answerOnceGone(Set.of(TP)).error());
    }

    @Test
    void aPartitionThatMovedAwayAnswersNotLeaderOrFollower() {
        assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, answerOnceGone(Set.of()).error());
    }

    private static PartitionProduceResult answerOnceGone(Set<TopicPartition> inFailedLogDirs) {
        AtomicReference<Map<TopicPartition, PartitionProduceResult>> answer = new AtomicReference<>();
        DelayedProduce produce = new DelayedProduce(30_000, Map.of(TP, PartitionProduceResult.succeeded(10, -1, 0)),
                Map.of(TP, 11L), tp -> Optional.empty(), inFailedLogDirs::contains, answer::set);
        assertTrue(produce.tryComplete());
        return answer.get().get(TP);
    }
}
