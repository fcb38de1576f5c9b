package io.kraft.cli.partitions;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * How far running reassignments have copied: for each adding replica, the bytes its log holds against its leader's
 * (from DescribeLogDirs). A broker that is down or does not answer counts as having copied nothing.
 *
 * @param copiedBytes bytes the adding replicas hold, each counted up to its leader's size
 * @param totalBytes  the leaders' sizes, once per adding replica
 */
public record CopyProgress(long copiedBytes, long totalBytes) {

    /** The progress of the given running reassignments. */
    public static CopyProgress of(Admin admin, Map<TopicPartition, PartitionReassignment> running)
            throws InterruptedException {
        if (running.isEmpty()) {
            return new CopyProgress(0, 0);
        }
        Set<String> topics = new HashSet<>();
        Set<Integer> brokers = new HashSet<>();
        running.forEach((partition, reassignment) -> {
            topics.add(partition.topic());
            brokers.addAll(reassignment.replicas());
        });
        // Only brokers that are up: the Admin client would wait its whole timeout for one that is not.
        brokers.retainAll(LiveBrokers.of(admin));
        Map<String, KafkaFuture<TopicDescription>> descriptions = admin.describeTopics(topics).topicNameValues();
        Map<Integer, KafkaFuture<Map<String, LogDirDescription>>> dirs = admin.describeLogDirs(brokers)
                .descriptions();
        Map<Integer, Map<TopicPartition, Long>> sizes = new HashMap<>();
        for (Map.Entry<Integer, KafkaFuture<Map<String, LogDirDescription>>> broker : dirs.entrySet()) {
            Map<TopicPartition, Long> brokerSizes = sizes.computeIfAbsent(broker.getKey(), b -> new HashMap<>());
            for (LogDirDescription dir : answer(broker.getValue(), Map.<String, LogDirDescription>of()).values()) {
                for (Map.Entry<TopicPartition, ReplicaInfo> replica : dir.replicaInfos().entrySet()) {
                    brokerSizes.merge(replica.getKey(), replica.getValue().size(), Long::sum);
                }
            }
        }
        long copied = 0;
        long total = 0;
        for (Map.Entry<TopicPartition, PartitionReassignment> entry : running.entrySet()) {
            TopicPartition partition = entry.getKey();
            TopicDescription description = answer(descriptions.get(partition.topic()), null);
            if (description == null || description.partitions().size() <= partition.partition()) {
                continue;
            }
            TopicPartitionInfo info = description.partitions().get(partition.partition());
            Node leader = info.leader();
            if (leader == null) {
                continue;
            }
            long leaderBytes = sizes.getOrDefault(leader.id(), Map.of()).getOrDefault(partition, 0L);
            for (int adding : entry.getValue().addingReplicas()) {
                copied += Math.min(leaderBytes, sizes.getOrDefault(adding, Map.of()).getOrDefault(partition, 0L));
                total += leaderBytes;
            }
        }
        return new CopyProgress(copied, total);
    }

    private static <T> T answer(KafkaFuture<T> future, T otherwise) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            return otherwise;
        }
    }
}
