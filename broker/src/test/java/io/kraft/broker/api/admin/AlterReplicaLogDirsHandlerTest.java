package io.kraft.broker.api.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.RequestHeader;
import io.kraft.broker.protocol.message.AlterReplicaLogDirsRequest;
import io.kraft.broker.protocol.message.AlterReplicaLogDirsRequest.AlterReplicaLogDir;
import io.kraft.broker.protocol.message.AlterReplicaLogDirsRequest.AlterReplicaLogDirTopic;
import io.kraft.broker.protocol.message.AlterReplicaLogDirsResponse;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlterReplicaLogDirsHandlerTest {
    private final Map<TopicPartition, Path> asked = new HashMap<>();
    private final AlterReplicaLogDirsHandler handler = new AlterReplicaLogDirsHandler(moves -> {
        asked.putAll(moves);
        Map<TopicPartition, Errors> errors = new HashMap<>();
        moves.keySet().forEach(tp -> errors.put(tp, Errors.NONE));
        return errors;
    });

    private AlterReplicaLogDirsResponse alter(List<AlterReplicaLogDir> dirs) {
        AlterReplicaLogDirsRequest body = new AlterReplicaLogDirsRequest().setDirs(dirs);
        return handler.handle(null, new ApiRequest<>(
                new RequestHeader(ApiKey.ALTER_REPLICA_LOG_DIRS.id(), (short) 2, 1, "test", (short) 1),
                ApiKey.ALTER_REPLICA_LOG_DIRS, body));
    }

    private static AlterReplicaLogDir dir(String path, String topic, Integer... partitions) {
        AlterReplicaLogDir dir = new AlterReplicaLogDir().setPath(path);
        dir.topics().add(new AlterReplicaLogDirTopic().setName(topic)
                .setPartitions(new ArrayList<>(List.of(partitions))));
        return dir;
    }

    private static Map<String, Short> codes(AlterReplicaLogDirsResponse response) {
        Map<String, Short> codes = new HashMap<>();
        response.results().forEach(t -> t.partitions().forEach(p ->
                codes.put(t.topicName() + "-" + p.partitionIndex(), p.errorCode())));
        return codes;
    }

    @Test
    void namesNoPartitionCanHaveAreUnknownAndTheRestStillMove() {
        AlterReplicaLogDirsResponse response = alter(new ArrayList<>(List.of(
                dir("/data/b", "orders", 0, -43),
                dir("/data/b", "", 1),
                dir("/data/b", "bad/name", 2))));
        Map<String, Short> codes = codes(response);
        assertEquals(Errors.NONE.code(), codes.get("orders-0"));
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), codes.get("orders--43"));
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), codes.get("-1"));
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), codes.get("bad/name-2"));
        assertEquals(Map.of(new TopicPartition("orders", 0), Path.of("/data/b")), asked);
    }

    @Test
    void theErrorAnswerNamesEveryPartitionEvenOnesNoTopicCanHave() {
        AlterReplicaLogDirsRequest body = new AlterReplicaLogDirsRequest()
                .setDirs(new ArrayList<>(List.of(dir("/data/b", "orders", 0, -1))));
        AlterReplicaLogDirsResponse response = handler.errorResponse(new ApiRequest<>(
                new RequestHeader(ApiKey.ALTER_REPLICA_LOG_DIRS.id(), (short) 2, 1, "test", (short) 1),
                ApiKey.ALTER_REPLICA_LOG_DIRS, body), Errors.CLUSTER_AUTHORIZATION_FAILED).orElseThrow();
        Map<String, Short> codes = codes(response);
        assertEquals(2, codes.size());
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), codes.get("orders--1"));
    }
}
