package io.kraft.broker.api.admin;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.AlterReplicaLogDirsRequest;
import io.kraft.broker.protocol.message.AlterReplicaLogDirsRequest.AlterReplicaLogDir;
import io.kraft.broker.protocol.message.AlterReplicaLogDirsRequest.AlterReplicaLogDirTopic;
import io.kraft.broker.protocol.message.AlterReplicaLogDirsResponse;
import io.kraft.broker.protocol.message.AlterReplicaLogDirsResponse.AlterReplicaLogDirPartitionResult;
import io.kraft.broker.protocol.message.AlterReplicaLogDirsResponse.AlterReplicaLogDirTopicResult;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Answers AlterReplicaLogDirs (v1-2, KIP-113): moves each named replica of this broker to the log directory given by
 * path, answering per partition (LOG_DIR_NOT_FOUND, KAFKA_STORAGE_ERROR, REPLICA_NOT_AVAILABLE, or NONE once the move
 * runs in the background). A partition named under two directories moves to neither and gets INVALID_REQUEST.
 */
public final class AlterReplicaLogDirsHandler
        implements RequestHandler<AlterReplicaLogDirsRequest, AlterReplicaLogDirsResponse> {
    private final Function<Map<TopicPartition, Path>, Map<TopicPartition, Errors>> mover;

    /** @param mover starts the moves and answers each partition's error (see ReplicaManager#alterReplicaLogDirs) */
    public AlterReplicaLogDirsHandler(Function<Map<TopicPartition, Path>, Map<TopicPartition, Errors>> mover) {
        this.mover = Objects.requireNonNull(mover, "mover");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.ALTER_REPLICA_LOG_DIRS;
    }

    @Override
    public AlterReplicaLogDirsResponse handle(RequestContext context, ApiRequest<AlterReplicaLogDirsRequest> request) {
        Map<TopicPartition, Path> moves = new LinkedHashMap<>();
        Map<TopicPartition, Errors> results = new LinkedHashMap<>();
        Map<String, Map<Integer, Errors>> unnamed = new TreeMap<>();
        for (AlterReplicaLogDir dir : request.body().dirs()) {
            Optional<Path> path = parse(dir.path());
            for (AlterReplicaLogDirTopic topic : dir.topics()) {
                for (int partition : topic.partitions()) {
                    Optional<TopicPartition> named = topicPartition(topic.name(), partition);
                    if (named.isEmpty()) {
                        // No topic can have this name or index: answered as Kafka answers an unknown partition.
                        unnamed.computeIfAbsent(String.valueOf(topic.name()), t -> new TreeMap<>())
                                .put(partition, Errors.UNKNOWN_TOPIC_OR_PARTITION);
                        continue;
                    }
                    TopicPartition tp = named.get();
                    if (results.containsKey(tp) || moves.containsKey(tp)) {
                        moves.remove(tp);
                        results.put(tp, Errors.INVALID_REQUEST);
                    } else if (path.isEmpty()) {
                        results.put(tp, Errors.LOG_DIR_NOT_FOUND);
                    } else {
                        moves.put(tp, path.get());
                    }
                }
            }
        }
        results.putAll(mover.apply(moves));
        return response(results, unnamed);
    }

    private static Optional<TopicPartition> topicPartition(String topic, int partition) {
        try {
            return Optional.of(new TopicPartition(topic, partition));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> parse(String path) {
        try {
            return path == null || path.isEmpty() ? Optional.empty() : Optional.of(Path.of(path));
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    private static AlterReplicaLogDirsResponse response(Map<TopicPartition, Errors> results,
                                                        Map<String, Map<Integer, Errors>> unnamed) {
        Map<String, Map<Integer, Errors>> byTopic = new TreeMap<>();
        unnamed.forEach((topic, partitions) -> byTopic.computeIfAbsent(topic, t -> new TreeMap<>()).putAll(partitions));
        results.forEach((tp, error) -> byTopic.computeIfAbsent(tp.topic(), t -> new TreeMap<>())
                .put(tp.partition(), error));
        AlterReplicaLogDirsResponse response = new AlterReplicaLogDirsResponse();
        byTopic.forEach((topic, partitions) -> {
            AlterReplicaLogDirTopicResult result = new AlterReplicaLogDirTopicResult().setTopicName(topic);
            partitions.forEach((partition, error) -> result.partitions().add(new AlterReplicaLogDirPartitionResult()
                    .setPartitionIndex(partition).setErrorCode(error.code())));
            response.results().add(result);
        });
        return response;
    }

    @Override
    public Optional<AlterReplicaLogDirsResponse> errorResponse(ApiRequest<AlterReplicaLogDirsRequest> request,
                                                               Errors error) {
        Map<String, Map<Integer, Errors>> results = new TreeMap<>();
        for (AlterReplicaLogDir dir : request.body().dirs()) {
            for (AlterReplicaLogDirTopic topic : dir.topics()) {
                topic.partitions().forEach(p -> results.computeIfAbsent(String.valueOf(topic.name()),
                        t -> new TreeMap<>()).put(p, error));
            }
        }
        return Optional.of(response(Map.of(), results));
    }
}
