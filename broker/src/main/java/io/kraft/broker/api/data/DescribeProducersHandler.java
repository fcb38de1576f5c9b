package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DescribeProducersRequest;
import io.kraft.broker.protocol.message.DescribeProducersRequest.TopicRequest;
import io.kraft.broker.protocol.message.DescribeProducersResponse;
import io.kraft.broker.protocol.message.DescribeProducersResponse.PartitionResponse;
import io.kraft.broker.protocol.message.DescribeProducersResponse.ProducerState;
import io.kraft.broker.protocol.message.DescribeProducersResponse.TopicResponse;
import io.kraft.broker.replica.Partition;
import io.kraft.broker.replica.ReplicaException;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.producer.ProducerStateEntry;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers DescribeProducers (v0, KIP-664) on the partitions' leader: each partition's active producers with their
 * epoch, last sequence, last timestamp, the coordinator epoch of their last marker and the first offset of their
 * open transaction (-1 without one), in producer id order. {@code kafka-transactions.sh describe-producers} and
 * {@code find-hanging} read it.
 */
public final class DescribeProducersHandler implements RequestHandler<DescribeProducersRequest,
        DescribeProducersResponse> {
    private static final Logger LOG = LoggerFactory.getLogger(DescribeProducersHandler.class);
    private static final PartitionRequests<TopicRequest, Integer, TopicResponse, PartitionResponse> PARTITIONS =
            new PartitionRequests<>("DescribeProducers", TopicRequest::name, TopicRequest::partitionIndexes,
                    Integer::intValue, (name, partitions) -> new TopicResponse().setName(name).setPartitions(partitions),
                    index -> new PartitionResponse().setPartitionIndex(index));

    private final ReplicaManager replicaManager;

    public DescribeProducersHandler(ReplicaManager replicaManager) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_PRODUCERS;
    }

    @Override
    public DescribeProducersResponse handle(RequestContext context, ApiRequest<DescribeProducersRequest> request) {
        return new DescribeProducersResponse().setTopics(PARTITIONS.respond(request.body().topics(),
                topic -> context.authorize(AclOperation.READ, ResourceType.TOPIC, topic),
                (tp, index, out) -> {
                    Partition partition = replicaManager.partitionOrError(tp);
                    if (!partition.isLeader()) {
                        throw new ReplicaException(Errors.NOT_LEADER_OR_FOLLOWER, "broker "
                                + replicaManager.brokerId() + " does not lead " + tp);
                    }
                    List<ProducerStateEntry> producers = partition.log().producerState().values().stream()
                            .sorted(Comparator.comparingLong(ProducerStateEntry::producerId)).toList();
                    for (ProducerStateEntry producer : producers) {
                        out.activeProducers().add(new ProducerState()
                                .setProducerId(producer.producerId())
                                .setProducerEpoch(producer.producerEpoch())
                                .setLastSequence(producer.lastSequence())
                                .setLastTimestamp(producer.lastTimestampMs())
                                .setCoordinatorEpoch(producer.coordinatorEpoch())
                                .setCurrentTxnStartOffset(producer.currentTxnFirstOffset()));
                    }
                }, DescribeProducersHandler::failed, LOG));
    }

    @Override
    public Optional<DescribeProducersResponse> errorResponse(ApiRequest<DescribeProducersRequest> request,
                                                             Errors error) {
        return Optional.of(new DescribeProducersResponse().setTopics(
                PARTITIONS.errorResponse(request.body().topics(), error, DescribeProducersHandler::failed)));
    }

    private static void failed(PartitionResponse out, short errorCode) {
        out.setErrorCode(errorCode);
    }
}
