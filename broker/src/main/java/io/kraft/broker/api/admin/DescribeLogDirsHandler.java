package io.kraft.broker.api.admin;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DescribeLogDirsRequest;
import io.kraft.broker.protocol.message.DescribeLogDirsRequest.DescribableLogDirTopic;
import io.kraft.broker.protocol.message.DescribeLogDirsResponse;
import io.kraft.broker.protocol.message.DescribeLogDirsResponse.DescribeLogDirsPartition;
import io.kraft.broker.protocol.message.DescribeLogDirsResponse.DescribeLogDirsResult;
import io.kraft.broker.protocol.message.DescribeLogDirsResponse.DescribeLogDirsTopic;
import io.kraft.broker.replica.LogDirDescription;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Answers DescribeLogDirs (v1-5, KIP-113; v4 space from KIP-827) from this broker's own log directories: each
 * directory of {@code log.dirs} with the replicas it holds (size in bytes, how far the log's end is below the high
 * watermark), or KAFKA_STORAGE_ERROR for a failed one; all replicas, or only those of the named partitions. A replica
 * moving into a directory (AlterReplicaLogDirs) is listed there as a future replica, its lag the offsets it still
 * lacks; no directory is cordoned.
 */
public final class DescribeLogDirsHandler implements RequestHandler<DescribeLogDirsRequest, DescribeLogDirsResponse> {
    private final Supplier<List<LogDirDescription>> logDirs;

    public DescribeLogDirsHandler(Supplier<List<LogDirDescription>> logDirs) {
        this.logDirs = Objects.requireNonNull(logDirs, "logDirs");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_LOG_DIRS;
    }

    @Override
    public DescribeLogDirsResponse handle(RequestContext context, ApiRequest<DescribeLogDirsRequest> request) {
        // By name and partition rather than as TopicPartitions: a name or number no partition can have matches none.
        Map<String, Set<Integer>> wanted = null;
        if (request.body().topics() != null) {
            wanted = new HashMap<>();
            for (DescribableLogDirTopic topic : request.body().topics()) {
                wanted.computeIfAbsent(topic.topic(), t -> new HashSet<>()).addAll(topic.partitions());
            }
        }
        DescribeLogDirsResponse response = new DescribeLogDirsResponse().setErrorCode(Errors.NONE.code());
        for (LogDirDescription dir : logDirs.get()) {
            DescribeLogDirsResult result = new DescribeLogDirsResult()
                    .setLogDir(dir.dir().toAbsolutePath().toString())
                    .setErrorCode(dir.online() ? Errors.NONE.code() : Errors.KAFKA_STORAGE_ERROR.code())
                    .setTotalBytes(dir.totalBytes())
                    .setUsableBytes(dir.usableBytes());
            Map<String, Map<Integer, LogDirDescription.Replica>> byTopic = new TreeMap<>();
            for (Map.Entry<TopicPartition, LogDirDescription.Replica> replica : dir.replicas().entrySet()) {
                TopicPartition tp = replica.getKey();
                if (wanted == null || wanted.getOrDefault(tp.topic(), Set.of()).contains(tp.partition())) {
                    byTopic.computeIfAbsent(replica.getKey().topic(), t -> new TreeMap<>())
                            .put(replica.getKey().partition(), replica.getValue());
                }
            }
            byTopic.forEach((topic, partitions) -> {
                DescribeLogDirsTopic described = new DescribeLogDirsTopic().setName(topic);
                partitions.forEach((partition, replica) -> described.partitions().add(new DescribeLogDirsPartition()
                        .setPartitionIndex(partition).setPartitionSize(replica.sizeBytes())
                        .setOffsetLag(replica.offsetLag()).setIsFutureKey(replica.future())));
                result.topics().add(described);
            });
            response.results().add(result);
        }
        return response;
    }

    @Override
    public java.util.Optional<DescribeLogDirsResponse> errorResponse(ApiRequest<DescribeLogDirsRequest> request,
                                                                     Errors error) {
        return java.util.Optional.of(new DescribeLogDirsResponse().setErrorCode(error.code()));
    }
}
