package io.kraft.broker.replica;

import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and deletes the logs a broker holds but no longer hosts: their topic was deleted (or deleted and recreated)
 * while the broker was down, or the partition's replicas no longer include it.
 */
final class StrayLogs {
    private static final Logger LOG = LoggerFactory.getLogger(StrayLogs.class);

    private final int brokerId;
    private final LogDirectories logDirs;
    private final Map<TopicPartition, Long> checkpointedHighWatermarks;

    StrayLogs(int brokerId, LogDirectories logDirs, Map<TopicPartition, Long> checkpointedHighWatermarks) {
        this.brokerId = brokerId;
        this.logDirs = logDirs;
        this.checkpointedHighWatermarks = checkpointedHighWatermarks;
    }

    /** Deletes the logs stray in {@code image} that are not {@code hosted}; returns their partitions. */
    List<TopicPartition> delete(MetadataImage image, Predicate<TopicPartition> hosted) {
        List<TopicPartition> deleted = new ArrayList<>();
        for (Map.Entry<TopicPartition, Log> entry : logDirs.logs().entrySet()) {
            TopicPartition tp = entry.getKey();
            if (hosted.test(tp)) {
                continue;
            }
            String reason = strayReason(tp, entry.getValue(), image);
            if (reason == null) {
                continue;
            }
            try {
                logDirs.delete(tp);
                checkpointedHighWatermarks.remove(tp);
                deleted.add(tp);
                LOG.info("Broker {} deleted the stray log {}: {}", brokerId, entry.getValue().dir(), reason);
            } catch (RuntimeException e) {
                LOG.error("Broker {} could not delete the stray log of {}", brokerId, tp, e);
            }
        }
        for (Map.Entry<TopicPartition, Log> entry : logDirs.futureLogs().entrySet()) {
            // A move the partition's deletion (or reassignment away) interrupted while the broker was down.
            TopicPartition tp = entry.getKey();
            String reason = hosted.test(tp) ? null : strayReason(tp, entry.getValue(), image);
            if (reason != null) {
                logDirs.deleteFutureLog(tp);
                LOG.info("Broker {} deleted the stray future log {}: {}", brokerId, entry.getValue().dir(), reason);
            }
        }
        return deleted;
    }

    /** Why the log is stray in {@code current}, or null if this broker still hosts it there. */
    private String strayReason(TopicPartition tp, Log log, MetadataImage current) {
        TopicImage topic = current.topics().topic(tp.topic());
        if (topic == null) {
            return "topic " + tp.topic() + " no longer exists";
        }
        Optional<UUID> recorded = PartitionMetadataFile.read(log.dir());
        if (recorded.isPresent() && !recorded.get().equals(topic.id())) {
            return "it belonged to topic id " + recorded.get() + ", the topic now has id " + topic.id();
        }
        PartitionRegistration registration = topic.partition(tp.partition());
        if (registration == null) {
            return "topic " + tp.topic() + " has no partition " + tp.partition();
        }
        if (!registration.replicas().contains(brokerId)) {
            return "its replicas are now " + registration.replicas();
        }
        return null;
    }
}
