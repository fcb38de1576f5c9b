package io.kraft.broker.api.admin;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DescribeQuorumRequest;
import io.kraft.broker.protocol.message.DescribeQuorumResponse;
import io.kraft.raft.QuorumDescription;
import io.kraft.storage.errors.Errors;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers DescribeQuorum (v0-2) as a Kafka broker does, by asking the metadata quorum's leader: the metadata log's
 * one partition ({@code __cluster_metadata-0}) with its leader, epoch, high watermark, voters and observers, and
 * (v2) the voters' CONTROLLER endpoints. {@code kafka-metadata-quorum.sh --bootstrap-server} uses it.
 */
public final class DescribeQuorumHandler implements AsyncRequestHandler<DescribeQuorumRequest, DescribeQuorumResponse> {
    /** The metadata log's topic name, as Kafka names it. */
    public static final String METADATA_TOPIC = "__cluster_metadata";
    private static final Logger LOG = LoggerFactory.getLogger(DescribeQuorumHandler.class);
    private static final String CONTROLLER_LISTENER = "CONTROLLER";

    private final Supplier<QuorumDescriber> describer;

    /** @param describer read at each request: the node assembly sets it once the quorum is reachable */
    public DescribeQuorumHandler(Supplier<QuorumDescriber> describer) {
        this.describer = describer;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_QUORUM;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<DescribeQuorumRequest> request) {
        for (DescribeQuorumRequest.TopicData topic : request.body().topics()) {
            boolean metadataPartition = topic.topicName().equals(METADATA_TOPIC) && topic.partitions().size() == 1
                    && topic.partitions().get(0).partitionIndex() == 0;
            if (!metadataPartition) {
                return CompletableFuture.completedFuture(HandlerResponse.of(new DescribeQuorumResponse()
                        .setErrorCode(Errors.INVALID_REQUEST.code())
                        .setErrorMessage("only " + METADATA_TOPIC + "-0 has a quorum")));
            }
        }
        QuorumDescriber quorum = describer.get();
        short version = request.version();
        return quorum.describe().handle((description, failure) -> {
            if (failure != null) {
                LOG.debug("DescribeQuorum from {}: the quorum's leader did not answer: {}", context.clientAddress(),
                        failure.toString());
                return HandlerResponse.of(partitionError(Errors.NOT_LEADER_OR_FOLLOWER,
                        "the metadata quorum's leader did not answer: " + failure.getMessage()));
            }
            return HandlerResponse.of(answer(description, quorum.voters(), version));
        });
    }

    private static DescribeQuorumResponse answer(QuorumDescription description,
                                                 Map<Integer, InetSocketAddress> voters, short version) {
        DescribeQuorumResponse.PartitionData partition = new DescribeQuorumResponse.PartitionData()
                .setPartitionIndex(0)
                .setErrorCode(Errors.NONE.code())
                .setLeaderId(description.leaderId().orElse(-1))
                .setLeaderEpoch(description.epoch())
                .setHighWatermark(description.highWatermark());
        for (QuorumDescription.Member member : description.members()) {
            DescribeQuorumResponse.ReplicaState state = new DescribeQuorumResponse.ReplicaState()
                    .setReplicaId(member.replicaId())
                    .setLogEndOffset(member.endOffset())
                    .setLastFetchTimestamp(member.lastFetchTimestampMs())
                    .setLastCaughtUpTimestamp(member.lastCaughtUpTimestampMs())
                    .setReplicaDirectoryId(member.directoryId()); // all zeros (Kafka's ZERO_UUID) when not known
            if (member.voter()) {
                partition.currentVoters().add(state);
            } else {
                partition.observers().add(state);
            }
        }
        DescribeQuorumResponse response = new DescribeQuorumResponse().setErrorCode(Errors.NONE.code());
        response.topics().add(new DescribeQuorumResponse.TopicData().setTopicName(METADATA_TOPIC));
        response.topics().get(0).partitions().add(partition);
        if (version >= 2) {
            new TreeMap<>(voters).forEach((id, address) -> {
                DescribeQuorumResponse.Node node = new DescribeQuorumResponse.Node().setNodeId(id);
                node.listeners().add(new DescribeQuorumResponse.Listener().setName(CONTROLLER_LISTENER)
                        .setHost(address.getHostString()).setPort(address.getPort()));
                response.nodes().add(node);
            });
        }
        return response;
    }

    private static DescribeQuorumResponse partitionError(Errors error, String message) {
        DescribeQuorumResponse response = new DescribeQuorumResponse().setErrorCode(Errors.NONE.code());
        response.topics().add(new DescribeQuorumResponse.TopicData().setTopicName(METADATA_TOPIC));
        response.topics().get(0).partitions().add(new DescribeQuorumResponse.PartitionData()
                .setPartitionIndex(0).setErrorCode(error.code()).setErrorMessage(message).setLeaderId(-1)
                .setLeaderEpoch(-1).setHighWatermark(-1));
        return response;
    }

    @Override
    public Optional<DescribeQuorumResponse> errorResponse(ApiRequest<DescribeQuorumRequest> request, Errors error) {
        return Optional.of(new DescribeQuorumResponse().setErrorCode(error.code()));
    }
}
