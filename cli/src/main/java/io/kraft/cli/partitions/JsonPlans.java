package io.kraft.cli.partitions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;

/**
 * Kafka's JSON files for partition tools: the partitions of {@code kafka-leader-election.sh --path-to-json-file}
 * ({@code {"partitions": [{"topic": T, "partition": P}]}}), the topics of {@code --topics-to-move-json-file}
 * ({@code {"version": 1, "topics": [{"topic": T}]}}) and reassignment plans
 * ({@code {"version": 1, "partitions": [{"topic": T, "partition": P, "replicas": [B, ...], "log_dirs": [...]}]}}).
 * A file that does not follow the format is a {@link PlanException} naming what is wrong.
 */
public final class JsonPlans {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonPlans() {
    }

    /** The partitions of a leader-election file, in file order; a partition named twice is refused, as Kafka does. */
    public static Set<TopicPartition> electionPartitions(Path file) {
        JsonNode partitions = field(read(file), "partitions", file);
        Set<TopicPartition> result = new LinkedHashSet<>();
        List<TopicPartition> duplicates = new ArrayList<>();
        for (JsonNode entry : array(partitions, "partitions", file)) {
            TopicPartition partition = new TopicPartition(text(entry, "topic", file), integer(entry, "partition", file));
            if (!result.add(partition)) {
                duplicates.add(partition);
            }
        }
        if (!duplicates.isEmpty()) {
            throw new PlanException("Replica election data contains duplicate partitions: " + join(duplicates));
        }
        return result;
    }

    /** The topic names of a topics-to-move file. */
    public static List<String> topicsToMove(Path file) {
        List<String> topics = new ArrayList<>();
        for (JsonNode entry : array(field(read(file), "topics", file), "topics", file)) {
            topics.add(text(entry, "topic", file));
        }
        if (topics.isEmpty()) {
            throw new PlanException("No topics to move in " + file);
        }
        return topics;
    }

    /**
     * The target replicas of each partition of a reassignment plan, in file order, and the log directory named for
     * each replica where the plan names one rather than {@code "any"} (as Kafka's tool prints the current directories
     * in a rollback plan).
     */
    public static ReassignmentPlan reassignment(Path file) {
        JsonNode root = read(file);
        Map<TopicPartition, List<Integer>> plan = new LinkedHashMap<>();
        Map<TopicPartitionReplica, String> logDirs = new LinkedHashMap<>();
        for (JsonNode entry : array(field(root, "partitions", file), "partitions", file)) {
            TopicPartition partition = new TopicPartition(text(entry, "topic", file), integer(entry, "partition", file));
            List<Integer> replicas = new ArrayList<>();
            for (JsonNode replica : array(field(entry, "replicas", file), "replicas", file)) {
                if (!replica.isInt()) {
                    throw new PlanException("Replicas of " + partition + " in " + file + " must be broker ids");
                }
                replicas.add(replica.intValue());
            }
            if (replicas.isEmpty()) {
                throw new PlanException("Partition " + partition + " in " + file + " has no replicas");
            }
            if (Set.copyOf(replicas).size() != replicas.size()) {
                throw new PlanException("Partition " + partition + " in " + file + " has duplicate replicas "
                        + replicas);
            }
            JsonNode dirs = entry.get("log_dirs");
            if (dirs != null && !dirs.isNull()) {
                if (!dirs.isArray() || dirs.size() != replicas.size()) {
                    throw new PlanException("\"log_dirs\" of " + partition + " in " + file
                            + " must be an array with one entry per replica");
                }
                for (int i = 0; i < replicas.size(); i++) {
                    String dir = dirs.get(i).asText();
                    if (!"any".equals(dir)) {
                        logDirs.put(new TopicPartitionReplica(partition.topic(), partition.partition(),
                                replicas.get(i)), dir);
                    }
                }
            }
            if (plan.put(partition, replicas) != null) {
                throw new PlanException("Partition " + partition + " appears more than once in " + file);
            }
        }
        if (plan.isEmpty()) {
            throw new PlanException("No partitions in the reassignment plan " + file);
        }
        return new ReassignmentPlan(plan, logDirs);
    }

    /** A reassignment plan: target replicas per partition, and the log directories it names. */
    public record ReassignmentPlan(Map<TopicPartition, List<Integer>> replicas,
                                   Map<TopicPartitionReplica, String> logDirs) {
    }

    /** A reassignment plan in Kafka's format, one line, partitions in the given order, every log directory "any". */
    public static String reassignmentJson(Map<TopicPartition, List<Integer>> plan) {
        return reassignmentJson(plan, Map.of());
    }

    /** A reassignment plan in Kafka's format, naming the given replicas' log directories and "any" for others. */
    public static String reassignmentJson(Map<TopicPartition, List<Integer>> plan,
                                          Map<TopicPartitionReplica, String> logDirs) {
        StringBuilder json = new StringBuilder("{\"version\":1,\"partitions\":[");
        boolean first = true;
        for (Map.Entry<TopicPartition, List<Integer>> entry : plan.entrySet()) {
            if (!first) {
                json.append(',');
            }
            first = false;
            TopicPartition partition = entry.getKey();
            json.append("{\"topic\":").append(quote(partition.topic())).append(",\"partition\":")
                    .append(partition.partition()).append(",\"replicas\":[");
            json.append(String.join(",", entry.getValue().stream().map(String::valueOf).toList()));
            json.append("],\"log_dirs\":[");
            json.append(String.join(",", entry.getValue().stream().map(replica -> quote(logDirs.getOrDefault(
                    new TopicPartitionReplica(partition.topic(), partition.partition(), replica), "any"))).toList()));
            json.append("]}");
        }
        return json.append("]}").toString();
    }

    /** Partitions as Kafka's tools list them: {@code t-0, t-1}. */
    public static String join(java.util.Collection<TopicPartition> partitions) {
        return String.join(", ", partitions.stream().map(TopicPartition::toString).toList());
    }

    private static String quote(String text) {
        try {
            return MAPPER.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode read(Path file) {
        String content;
        try {
            content = Files.readString(file);
        } catch (IOException e) {
            throw new PlanException("Cannot read " + file + ": " + e.getMessage());
        }
        try {
            JsonNode root = MAPPER.readTree(content);
            if (root == null || !root.isObject()) {
                throw new PlanException(file + " does not hold a JSON object");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw new PlanException(file + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static JsonNode field(JsonNode node, String name, Path file) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new PlanException(file + " has no \"" + name + "\" field");
        }
        return value;
    }

    private static Iterable<JsonNode> array(JsonNode node, String name, Path file) {
        if (!node.isArray()) {
            throw new PlanException("\"" + name + "\" in " + file + " must be an array");
        }
        return node;
    }

    private static String text(JsonNode node, String name, Path file) {
        JsonNode value = field(node, name, file);
        if (!value.isTextual() || value.asText().isEmpty()) {
            throw new PlanException("\"" + name + "\" in " + file + " must be a non-empty string");
        }
        return value.asText();
    }

    private static int integer(JsonNode node, String name, Path file) {
        JsonNode value = field(node, name, file);
        if (!value.isInt() || value.intValue() < 0) {
            throw new PlanException("\"" + name + "\" in " + file + " must be a non-negative integer");
        }
        return value.intValue();
    }

    /** The target replicas of each partition, as the Admin client takes them. */
    public static Map<TopicPartition, Optional<org.apache.kafka.clients.admin.NewPartitionReassignment>> targets(
            Map<TopicPartition, List<Integer>> plan) {
        Map<TopicPartition, Optional<org.apache.kafka.clients.admin.NewPartitionReassignment>> targets =
                new LinkedHashMap<>();
        plan.forEach((partition, replicas) -> targets.put(partition,
                Optional.of(new org.apache.kafka.clients.admin.NewPartitionReassignment(replicas))));
        return targets;
    }
}
