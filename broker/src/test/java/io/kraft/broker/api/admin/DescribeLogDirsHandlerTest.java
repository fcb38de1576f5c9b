package io.kraft.broker.api.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.RequestHeader;
import io.kraft.broker.protocol.message.DescribeLogDirsRequest;
import io.kraft.broker.protocol.message.DescribeLogDirsRequest.DescribableLogDirTopic;
import io.kraft.broker.protocol.message.DescribeLogDirsResponse;
import io.kraft.broker.replica.LogDirDescription;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DescribeLogDirsHandlerTest {
    private static final LogDirDescription ONLINE = new LogDirDescription(Path.of("/data/a"), true, 1000, 400,
            Map.of(new TopicPartition("orders", 0), new LogDirDescription.Replica(120, 0),
                    new TopicPartition("orders", 1), new LogDirDescription.Replica(80, 3),
                    new TopicPartition("audit", 0), new LogDirDescription.Replica(5, 0)));
    private static final LogDirDescription FAILED = new LogDirDescription(Path.of("/data/b"), false, -1, -1, Map.of());

    private static DescribeLogDirsResponse describe(List<DescribableLogDirTopic> topics, short version) {
        DescribeLogDirsRequest body = new DescribeLogDirsRequest().setTopics(topics);
        return new DescribeLogDirsHandler(() -> List.of(ONLINE, FAILED)).handle(null, new ApiRequest<>(
                new RequestHeader(ApiKey.DESCRIBE_LOG_DIRS.id(), version, 1, "test", (short) 2),
                ApiKey.DESCRIBE_LOG_DIRS, body));
    }

    @Test
    void everyReplicaOfEveryDirectoryAndFailedDirectoriesAsStorageErrors() {
        DescribeLogDirsResponse response = describe(null, (short) 4);
        assertEquals(2, response.results().size());
        DescribeLogDirsResponse.DescribeLogDirsResult online = response.results().get(0);
        assertEquals("/data/a", online.logDir());
        assertEquals(Errors.NONE.code(), online.errorCode());
        assertEquals(List.of("audit", "orders"), online.topics().stream().map(t -> t.name()).toList());
        assertEquals(80, online.topics().get(1).partitions().get(1).partitionSize());
        assertEquals(3, online.topics().get(1).partitions().get(1).offsetLag());
        assertEquals(400, online.usableBytes());
        assertEquals(Errors.KAFKA_STORAGE_ERROR.code(), response.results().get(1).errorCode());
    }

    @Test
    void namedPartitionsFilterAndNamesNoPartitionCanHaveMatchNothing() {
        List<DescribableLogDirTopic> topics = new ArrayList<>(List.of(
                new DescribableLogDirTopic().setTopic("orders").setPartitions(new ArrayList<>(List.of(1, -71))),
                new DescribableLogDirTopic().setTopic("").setPartitions(new ArrayList<>(List.of(0)))));
        DescribeLogDirsResponse response = describe(topics, (short) 1);
        DescribeLogDirsResponse.DescribeLogDirsResult online = response.results().get(0);
        assertEquals(1, online.topics().size());
        assertEquals(1, online.topics().get(0).partitions().size());
        assertEquals(1, online.topics().get(0).partitions().get(0).partitionIndex());
    }
}
