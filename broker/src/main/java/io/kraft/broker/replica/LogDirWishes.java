package io.kraft.broker.replica;

import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * AlterReplicaLogDirs wishes for partitions this broker does not host yet (KIP-113): the directory its log is to be
 * created in. A wish is forgotten once used, after {@link #EXPIRY_MS}, when the topic it named is deleted, or, beyond
 * {@link #MAX_WISHES}, oldest first, so requests for partitions that never come cannot grow the broker's memory.
 */
final class LogDirWishes {
    private static final Logger LOG = LoggerFactory.getLogger(LogDirWishes.class);
    /** Long past a reassignment tool's retries (10 s by default), which re-send the wish until the replica exists. */
    static final long EXPIRY_MS = 5 * 60_000L;
    static final int MAX_WISHES = 1_000;

    /** {@code topicId}: the topic's id when it existed at the request, so its deletion drops the wish. */
    private record Wish(Path dir, Optional<UUID> topicId, long madeMs) {
    }

    private final int brokerId;
    /** In the order made (a renewed wish moves to the end), so the oldest is first. */
    private final LinkedHashMap<TopicPartition, Wish> wishes = new LinkedHashMap<>();

    LogDirWishes(int brokerId) {
        this.brokerId = brokerId;
    }

    synchronized void put(TopicPartition tp, Path dir, Optional<UUID> topicId, long nowMs) {
        wishes.remove(tp);
        wishes.put(tp, new Wish(dir, topicId, nowMs));
        Iterator<Map.Entry<TopicPartition, Wish>> oldest = wishes.entrySet().iterator();
        while (wishes.size() > MAX_WISHES) {
            Map.Entry<TopicPartition, Wish> dropped = oldest.next();
            oldest.remove();
            LOG.warn("Broker {} forgets its wish to place {} in {}: over {} wishes", brokerId, dropped.getKey(),
                    dropped.getValue().dir(), MAX_WISHES);
        }
    }

    /** The directory a live wish chose for the partition. */
    synchronized Optional<Path> peek(TopicPartition tp, long nowMs) {
        Wish wish = wishes.get(tp);
        return wish == null || expired(wish, nowMs) ? Optional.empty() : Optional.of(wish.dir());
    }

    /** The directory a live wish chose for the partition, forgetting the wish. */
    synchronized Optional<Path> take(TopicPartition tp, long nowMs) {
        Wish wish = wishes.remove(tp);
        return wish == null || expired(wish, nowMs) ? Optional.empty() : Optional.of(wish.dir());
    }

    synchronized void remove(TopicPartition tp) {
        wishes.remove(tp);
    }

    /** Forgets expired wishes and those whose topic no longer exists; answers how many. */
    synchronized int purge(long nowMs, Predicate<UUID> topicExists) {
        int purged = 0;
        for (Iterator<Map.Entry<TopicPartition, Wish>> it = wishes.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<TopicPartition, Wish> entry = it.next();
            Wish wish = entry.getValue();
            boolean deleted = wish.topicId().isPresent() && !topicExists.test(wish.topicId().get());
            if (deleted || expired(wish, nowMs)) {
                it.remove();
                purged++;
                LOG.info("Broker {} forgets its wish to place {} in {}: {}", brokerId, entry.getKey(), wish.dir(),
                        deleted ? "its topic was deleted" : "not hosted within " + EXPIRY_MS + " ms");
            }
        }
        return purged;
    }

    synchronized int size() {
        return wishes.size();
    }

    private static boolean expired(Wish wish, long nowMs) {
        return nowMs - wish.madeMs() >= EXPIRY_MS;
    }
}
