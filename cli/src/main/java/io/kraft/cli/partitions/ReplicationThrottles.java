package io.kraft.cli.partitions;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The throttles a reassignment sets and {@code --verify} clears, as Kafka's tool does (KIP-73): on every broker the
 * plan touches, {@code leader.replication.throttled.rate} and {@code follower.replication.throttled.rate}; per topic,
 * {@code leader.replication.throttled.replicas} naming each moving partition's current replicas and
 * {@code follower.replication.throttled.replicas} naming the replicas it adds.
 */
public final class ReplicationThrottles {
    public static final String LEADER_RATE = "leader.replication.throttled.rate";
    public static final String FOLLOWER_RATE = "follower.replication.throttled.rate";
    public static final String ALTER_LOG_DIRS_RATE = "replica.alter.log.dirs.io.max.bytes.per.second";
    public static final String LEADER_REPLICAS = "leader.replication.throttled.replicas";
    public static final String FOLLOWER_REPLICAS = "follower.replication.throttled.replicas";
    private static final long AWAIT_POLL_MS = 100;

    private ReplicationThrottles() {
    }

    /**
     * Per topic, the two throttled replica lists of a plan: only partitions whose replicas change are throttled.
     *
     * @return topic → (leader list, follower list), each {@code partition:broker,...}
     */
    public static Map<String, List<String>> topicLists(Map<TopicPartition, List<Integer>> current,
                                                       Map<TopicPartition, List<Integer>> plan) {
        Map<String, Set<String>> leaders = new TreeMap<>();
        Map<String, Set<String>> followers = new TreeMap<>();
        plan.forEach((partition, target) -> {
            List<Integer> existing = current.getOrDefault(partition, List.of());
            if (existing.equals(target)) {
                return;
            }
            Set<String> leaderItems = leaders.computeIfAbsent(partition.topic(), t -> new TreeSet<>());
            existing.forEach(broker -> leaderItems.add(partition.partition() + ":" + broker));
            Set<String> followerItems = followers.computeIfAbsent(partition.topic(), t -> new TreeSet<>());
            target.stream().filter(broker -> !existing.contains(broker))
                    .forEach(broker -> followerItems.add(partition.partition() + ":" + broker));
        });
        Map<String, List<String>> lists = new LinkedHashMap<>();
        leaders.forEach((topic, items) -> lists.put(topic, List.of(String.join(",", items),
                String.join(",", followers.getOrDefault(topic, Set.of())))));
        return lists;
    }

    /** Sets the rates on the brokers and the replica lists on the topics of a plan. */
    public static void set(Admin admin, Map<TopicPartition, List<Integer>> current,
                           Map<TopicPartition, List<Integer>> plan, long throttle)
            throws ExecutionException, InterruptedException {
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new LinkedHashMap<>();
        topicLists(current, plan).forEach((topic, lists) -> changes.put(
                new ConfigResource(ConfigResource.Type.TOPIC, topic),
                List.of(set(LEADER_REPLICAS, lists.get(0)), set(FOLLOWER_REPLICAS, lists.get(1)))));
        for (int broker : brokers(current, plan)) {
            changes.put(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker)),
                    List.of(set(LEADER_RATE, Long.toString(throttle)), set(FOLLOWER_RATE, Long.toString(throttle))));
        }
        admin.incrementalAlterConfigs(changes).all().get();
    }

    /** Sets the copy rate between log directories on the brokers given. */
    public static void setAlterLogDirs(Admin admin, Collection<Integer> brokers, long throttle)
            throws ExecutionException, InterruptedException {
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new LinkedHashMap<>();
        for (int broker : brokers) {
            changes.put(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker)),
                    List.of(set(ALTER_LOG_DIRS_RATE, Long.toString(throttle))));
        }
        admin.incrementalAlterConfigs(changes).all().get();
    }

    /**
     * Waits until each broker given reports (DescribeConfigs, answered by that broker) the copy rate between log
     * directories as {@code throttle}, so a move asked for next is throttled from its first byte. Answers the brokers
     * that did not within {@code timeoutMs}.
     */
    public static Set<Integer> awaitAlterLogDirs(Admin admin, Collection<Integer> brokers, long throttle,
                                                 long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        Set<Integer> waiting = new TreeSet<>(brokers);
        while (true) {
            waiting.removeIf(broker -> reports(admin, broker, Long.toString(throttle), deadline));
            if (waiting.isEmpty() || System.currentTimeMillis() >= deadline) {
                return waiting;
            }
            Thread.sleep(AWAIT_POLL_MS);
        }
    }

    private static boolean reports(Admin admin, int broker, String value, long deadline) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker));
        try {
            ConfigEntry entry = admin.describeConfigs(List.of(resource)).all()
                    .get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS)
                    .get(resource).get(ALTER_LOG_DIRS_RATE);
            return entry != null && value.equals(entry.value());
        } catch (ExecutionException | TimeoutException e) {
            return false; // asked again until the deadline
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Removes the three rates from the brokers and the replica lists from the topics. */
    public static void clear(Admin admin, Collection<Integer> brokers, Collection<String> topics)
            throws ExecutionException, InterruptedException {
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new LinkedHashMap<>();
        for (String topic : new TreeSet<>(topics)) {
            changes.put(new ConfigResource(ConfigResource.Type.TOPIC, topic),
                    List.of(delete(LEADER_REPLICAS), delete(FOLLOWER_REPLICAS)));
        }
        for (int broker : new TreeSet<>(brokers)) {
            changes.put(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker)),
                    List.of(delete(LEADER_RATE), delete(FOLLOWER_RATE), delete(ALTER_LOG_DIRS_RATE)));
        }
        admin.incrementalAlterConfigs(changes).all().get();
    }

    /** Every broker holding or receiving a replica of a partition the plan moves. */
    public static Set<Integer> brokers(Map<TopicPartition, List<Integer>> current,
                                       Map<TopicPartition, List<Integer>> plan) {
        Set<Integer> brokers = new TreeSet<>();
        plan.forEach((partition, target) -> {
            List<Integer> existing = current.getOrDefault(partition, List.of());
            if (!existing.equals(target)) {
                brokers.addAll(existing);
                brokers.addAll(target);
            }
        });
        return brokers;
    }

    private static AlterConfigOp set(String key, String value) {
        return new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET);
    }

    private static AlterConfigOp delete(String key) {
        return new AlterConfigOp(new ConfigEntry(key, ""), AlterConfigOp.OpType.DELETE);
    }
}
