package io.kraft.broker.api.data;

import io.kraft.broker.fetch.FetchIsolation;
import io.kraft.broker.fetch.FetchParams;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ListOffsetsRequest;
import io.kraft.broker.protocol.message.ListOffsetsRequest.ListOffsetsPartition;
import io.kraft.broker.protocol.message.ListOffsetsRequest.ListOffsetsTopic;
import io.kraft.broker.protocol.message.ListOffsetsResponse;
import io.kraft.broker.protocol.message.ListOffsetsResponse.ListOffsetsPartitionResponse;
import io.kraft.broker.protocol.message.ListOffsetsResponse.ListOffsetsTopicResponse;
import io.kraft.broker.replica.ReplicaException;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.broker.replica.TimestampAndOffset;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers ListOffsets (v1-10) from the leader's log: earliest (-2) and earliest-local (-4, = earliest: no tiered
 * storage), latest (-1, the high watermark; the last stable offset for read_committed, KIP-98),
 * max timestamp (-3), latest-tiered (-5, none), or the first record at or after a timestamp, each with the
 * leader epoch of the offset found. A partition named twice gets INVALID_REQUEST.
 */
public final class ListOffsetsHandler implements RequestHandler<ListOffsetsRequest, ListOffsetsResponse> {
    private static final Logger LOG = LoggerFactory.getLogger(ListOffsetsHandler.class);
    private static final PartitionRequests<ListOffsetsTopic, ListOffsetsPartition, ListOffsetsTopicResponse,
            ListOffsetsPartitionResponse> PARTITIONS = new PartitionRequests<>("ListOffsets",
            ListOffsetsTopic::name, ListOffsetsTopic::partitions, ListOffsetsPartition::partitionIndex,
            (name, partitions) -> new ListOffsetsTopicResponse().setName(name).setPartitions(partitions),
            index -> new ListOffsetsPartitionResponse().setPartitionIndex(index));

    private final ReplicaManager replicaManager;

    public ListOffsetsHandler(ReplicaManager replicaManager) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.LIST_OFFSETS;
    }

    @Override
    public ListOffsetsResponse handle(RequestContext context, ApiRequest<ListOffsetsRequest> request) {
        int replicaId = request.body().replicaId();
        // read_committed (v2+): LATEST is the last stable offset, and lookups stop there (KIP-98).
        FetchIsolation isolation = FetchIsolation.of(replicaId, request.body().isolationLevel());
        boolean fetchOnlyFromLeader = replicaId != FetchParams.DEBUGGING_REPLICA_ID;
        Set<TopicPartition> seen = new HashSet<>();
        return new ListOffsetsResponse().setTopics(PARTITIONS.respond(request.body().topics(),
                topic -> context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic),
                (tp, partition, out) -> {
                    if (!seen.add(tp)) {
                        throw new ReplicaException(Errors.INVALID_REQUEST, tp + " is named twice");
                    }
                    TimestampAndOffset answer = replicaManager.partitionOrError(tp).offsetForTimestamp(
                            partition.timestamp(), partition.currentLeaderEpoch(), isolation, fetchOnlyFromLeader);
                    out.setTimestamp(answer.timestampMs());
                    out.setOffset(answer.offset());
                    out.setLeaderEpoch(answer.leaderEpoch());
                }, ListOffsetsHandler::failed, LOG));
    }

    @Override
    public Optional<ListOffsetsResponse> errorResponse(ApiRequest<ListOffsetsRequest> request, Errors error) {
        return Optional.of(new ListOffsetsResponse().setTopics(
                PARTITIONS.errorResponse(request.body().topics(), error, ListOffsetsHandler::failed)));
    }

    private static void failed(ListOffsetsPartitionResponse out, short errorCode) {
        out.setErrorCode(errorCode);
        out.setTimestamp(TimestampAndOffset.NOT_FOUND.timestampMs());
        out.setOffset(TimestampAndOffset.NOT_FOUND.offset());
        out.setLeaderEpoch(TimestampAndOffset.NOT_FOUND.leaderEpoch());
    }
}
