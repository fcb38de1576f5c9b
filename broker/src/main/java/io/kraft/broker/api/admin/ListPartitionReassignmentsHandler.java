package io.kraft.broker.api.admin;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ListPartitionReassignmentsRequest;
import io.kraft.broker.protocol.message.ListPartitionReassignmentsRequest.ListPartitionReassignmentsTopics;
import io.kraft.broker.protocol.message.ListPartitionReassignmentsResponse;
import io.kraft.broker.protocol.message.ListPartitionReassignmentsResponse.OngoingPartitionReassignment;
import io.kraft.broker.protocol.message.ListPartitionReassignmentsResponse.OngoingTopicReassignment;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Answers ListPartitionReassignments (v0, KIP-455) from the broker's metadata image, where a running reassignment is
 * part of each partition's registration: the named partitions that are being reassigned, or all of them when none
 * are named. Partitions and topics that do not exist or are not being reassigned are left out, as in Kafka.
 */
public final class ListPartitionReassignmentsHandler
        implements RequestHandler<ListPartitionReassignmentsRequest, ListPartitionReassignmentsResponse> {
    private final Supplier<MetadataImage> images;

    public ListPartitionReassignmentsHandler(Supplier<MetadataImage> images) {
        this.images = Objects.requireNonNull(images, "images");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.LIST_PARTITION_REASSIGNMENTS;
    }

    @Override
    public ListPartitionReassignmentsResponse handle(RequestContext context,
                                                     ApiRequest<ListPartitionReassignmentsRequest> request) {
        MetadataImage image = images.get();
        ListPartitionReassignmentsResponse response = new ListPartitionReassignmentsResponse();
        List<ListPartitionReassignmentsTopics> named = request.body().topics();
        if (named == null) {
            image.topics().topicsById().values().stream().sorted(Comparator.comparing(TopicImage::name))
                    .forEach(topic -> add(response, topic, topic.partitions().keySet().stream().sorted().toList()));
        } else {
            for (ListPartitionReassignmentsTopics topic : named) {
                TopicImage found = image.topics().topic(topic.name());
                if (found != null) {
                    add(response, found, topic.partitionIndexes());
                }
            }
        }
        return response;
    }

    private static void add(ListPartitionReassignmentsResponse response, TopicImage topic, List<Integer> partitions) {
        List<OngoingPartitionReassignment> ongoing = new ArrayList<>();
        for (int partitionId : partitions) {
            PartitionRegistration partition = topic.partition(partitionId);
            if (partition != null && partition.isReassigning()) {
                ongoing.add(new OngoingPartitionReassignment().setPartitionIndex(partitionId)
                        .setReplicas(new ArrayList<>(partition.replicas()))
                        .setAddingReplicas(new ArrayList<>(partition.addingReplicas()))
                        .setRemovingReplicas(new ArrayList<>(partition.removingReplicas())));
            }
        }
        if (!ongoing.isEmpty()) {
            response.topics().add(new OngoingTopicReassignment().setName(topic.name()).setPartitions(ongoing));
        }
    }

    @Override
    public java.util.Optional<ListPartitionReassignmentsResponse> errorResponse(
            ApiRequest<ListPartitionReassignmentsRequest> request, io.kraft.storage.errors.Errors error) {
        return java.util.Optional.of(new ListPartitionReassignmentsResponse().setErrorCode(error.code()));
    }
}
