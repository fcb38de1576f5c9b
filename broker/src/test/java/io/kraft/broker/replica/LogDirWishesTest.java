package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Wishes for partitions not hosted yet are bounded: used once, expiring, dropped with their topic, capped. */
class LogDirWishesTest {
    private static final Path DIR = Path.of("/disks/b");
    private static final TopicPartition TP = new TopicPartition("t", 0);

    private final LogDirWishes wishes = new LogDirWishes(1);

    @Test
    void aWishIsUsedOnceAndExpires() {
        wishes.put(TP, DIR, Optional.empty(), 0);
        assertEquals(Optional.of(DIR), wishes.peek(TP, 10));
        assertEquals(Optional.of(DIR), wishes.take(TP, 10));
        assertEquals(Optional.empty(), wishes.peek(TP, 10), "used");

        wishes.put(TP, DIR, Optional.empty(), 0);
        assertEquals(Optional.empty(), wishes.peek(TP, LogDirWishes.EXPIRY_MS), "expired, even before a purge");
        assertEquals(0, wishes.purge(LogDirWishes.EXPIRY_MS - 1, id -> true));
        assertEquals(1, wishes.purge(LogDirWishes.EXPIRY_MS, id -> true));
        assertEquals(0, wishes.size());
    }

    @Test
    void aWishIsForgottenWhenItsTopicIsDeleted() {
        UUID topic = new UUID(1, 2);
        wishes.put(TP, DIR, Optional.of(topic), 0);
        wishes.put(new TopicPartition("not-yet", 0), DIR, Optional.empty(), 0);
        assertEquals(0, wishes.purge(1, id -> true));
        assertEquals(1, wishes.purge(2, id -> false), "only the wish that named a topic, now deleted");
        assertEquals(Optional.empty(), wishes.peek(TP, 2));
        assertEquals(Optional.of(DIR), wishes.peek(new TopicPartition("not-yet", 0), 2));
    }

    @Test
    void beyondTheCapTheOldestWishesGo() {
        for (int i = 0; i <= LogDirWishes.MAX_WISHES; i++) {
            wishes.put(new TopicPartition("t", i), DIR, Optional.empty(), i);
        }
        wishes.put(new TopicPartition("t", 1), DIR, Optional.empty(), 5_000); // renewed: now the youngest
        wishes.put(new TopicPartition("u", 0), DIR, Optional.empty(), 5_001);
        assertEquals(LogDirWishes.MAX_WISHES, wishes.size());
        assertEquals(Optional.empty(), wishes.peek(new TopicPartition("t", 0), 5_001));
        assertEquals(Optional.empty(), wishes.peek(new TopicPartition("t", 2), 5_001));
        for (TopicPartition kept : Set.of(new TopicPartition("t", 1), new TopicPartition("t", 3),
                new TopicPartition("u", 0))) {
            assertEquals(Optional.of(DIR), wishes.peek(kept, 5_001), kept.toString());
        }
    }
}
