package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.OffsetForLeaderEpochRequest;
import io.kraft.broker.protocol.message.OffsetForLeaderEpochRequest.OffsetForLeaderPartition;
import io.kraft.broker.protocol.message.OffsetForLeaderEpochRequest.OffsetForLeaderTopic;
import io.kraft.broker.protocol.message.OffsetForLeaderEpochResponse;
import io.kraft.broker.protocol.message.OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.EpochEndOffset;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers OffsetForLeaderEpoch (v2-4) from the leader's leader epoch cache: for each partition the largest
 * epoch at most the one asked and the offset where it ended, which consumers use to detect log truncation
 * (KIP-320) and followers to find where to truncate (KIP-101). The current leader epoch is checked.
 */
public final class OffsetForLeaderEpochHandler
        implements RequestHandler<OffsetForLeaderEpochRequest, OffsetForLeaderEpochResponse> {
    private static final Logger LOG = LoggerFactory.getLogger(OffsetForLeaderEpochHandler.class);
    private static final PartitionRequests<OffsetForLeaderTopic, OffsetForLeaderPartition, OffsetForLeaderTopicResult,
            OffsetForLeaderEpochResponse.EpochEndOffset> PARTITIONS = new PartitionRequests<>("OffsetForLeaderEpoch",
            OffsetForLeaderTopic::topic, OffsetForLeaderTopic::partitions, OffsetForLeaderPartition::partition,
            (name, partitions) -> new OffsetForLeaderTopicResult().setTopic(name).setPartitions(partitions),
            index -> new OffsetForLeaderEpochResponse.EpochEndOffset().setPartition(index));

    private final ReplicaManager replicaManager;

    public OffsetForLeaderEpochHandler(ReplicaManager replicaManager) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.OFFSET_FOR_LEADER_EPOCH;
    }

    @Override
    public OffsetForLeaderEpochResponse handle(RequestContext context, ApiRequest<OffsetForLeaderEpochRequest> request) {
        return new OffsetForLeaderEpochResponse().setTopics(PARTITIONS.respond(request.body().topics(),
                // A follower (replica id set) needs ClusterAction; a consumer DESCRIBE on each topic.
                request.body().replicaId() >= 0 ? topic -> context.authorizeCluster(AclOperation.CLUSTER_ACTION)
                        : topic -> context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic),
                (tp, partition, out) -> {
                    EpochEndOffset answer = replicaManager.partitionOrError(tp).endOffsetForEpoch(
                            partition.currentLeaderEpoch(), partition.leaderEpoch(), true);
                    out.setLeaderEpoch(answer.epoch());
                    out.setEndOffset(answer.endOffset());
                }, OffsetForLeaderEpochHandler::failed, LOG));
    }

    @Override
    public Optional<OffsetForLeaderEpochResponse> errorResponse(ApiRequest<OffsetForLeaderEpochRequest> request,
                                                                Errors error) {
        return Optional.of(new OffsetForLeaderEpochResponse().setTopics(
                PARTITIONS.errorResponse(request.body().topics(), error, OffsetForLeaderEpochHandler::failed)));
    }

    private static void failed(OffsetForLeaderEpochResponse.EpochEndOffset out, short errorCode) {
        out.setErrorCode(errorCode);
        out.setLeaderEpoch(EpochEndOffset.UNDEFINED.epoch());
        out.setEndOffset(EpochEndOffset.UNDEFINED.endOffset());
    }
}
