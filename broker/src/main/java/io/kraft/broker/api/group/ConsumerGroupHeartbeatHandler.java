package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.consumer.Assignment;
import io.kraft.broker.group.consumer.ConsumerHeartbeat;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ConsumerGroupHeartbeatRequest;
import io.kraft.broker.protocol.message.ConsumerGroupHeartbeatResponse;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/** Answers ConsumerGroupHeartbeat (v0-1, KIP-848): the consumer protocol's only membership call. */
public final class ConsumerGroupHeartbeatHandler
        implements AsyncRequestHandler<ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse> {
    private final GroupCoordinatorService coordinator;

    public ConsumerGroupHeartbeatHandler(GroupCoordinatorService coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.CONSUMER_GROUP_HEARTBEAT;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<ConsumerGroupHeartbeatRequest> request) {
        ConsumerGroupHeartbeatRequest body = request.body();
        if (context.authorizationEnabled() && body.subscribedTopicNames() != null) {
            // Kafka asks for DESCRIBE on every topic named in the subscription (the group's READ is checked before).
            List<String> denied = body.subscribedTopicNames().stream()
                    .filter(topic -> !context.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic)).toList();
            if (!denied.isEmpty()) {
                return CompletableFuture.completedFuture(HandlerResponse.of(new ConsumerGroupHeartbeatResponse()
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                        .setErrorMessage("Topic authorization failed for topics " + denied)));
            }
        }
        Assignment owned = null;
        if (body.topicPartitions() != null) {
            Map<UUID, SortedSet<Integer>> byTopic = new TreeMap<>();
            body.topicPartitions().forEach(tp -> byTopic.computeIfAbsent(tp.topicId(), t -> new TreeSet<>())
                    .addAll(tp.partitions()));
            owned = new Assignment(byTopic);
        }
        ConsumerHeartbeat heartbeat = new ConsumerHeartbeat(body.groupId(), body.memberId(), body.memberEpoch(),
                body.instanceId(), body.rackId(), body.rebalanceTimeoutMs(), body.subscribedTopicNames(),
                request.version() >= 1 ? body.subscribedTopicRegex() : null, body.serverAssignor(), owned,
                Requests.clientId(request), Requests.clientHost(context));
        return Requests.respond(coordinator.consumerGroupHeartbeat(heartbeat), ConsumerGroupHeartbeatHandler::response);
    }

    private static ConsumerGroupHeartbeatResponse response(ConsumerHeartbeat.Result result) {
        ConsumerGroupHeartbeatResponse response = new ConsumerGroupHeartbeatResponse()
                .setErrorCode(result.errorCode())
                .setErrorMessage(result.errorMessage())
                .setMemberId(result.memberId())
                .setMemberEpoch(result.memberEpoch())
                .setHeartbeatIntervalMs(result.heartbeatIntervalMs());
        if (result.errorCode() == Errors.NONE.code() && result.assignment() != null) {
            ConsumerGroupHeartbeatResponse.Assignment assignment = new ConsumerGroupHeartbeatResponse.Assignment();
            result.assignment().partitions().forEach((topic, ids) -> assignment.topicPartitions().add(
                    new ConsumerGroupHeartbeatResponse.TopicPartitions().setTopicId(topic)
                            .setPartitions(new ArrayList<>(ids))));
            response.setAssignment(assignment);
        }
        return response;
    }

    @Override
    public Optional<ConsumerGroupHeartbeatResponse> errorResponse(ApiRequest<ConsumerGroupHeartbeatRequest> request,
                                                                  Errors error) {
        return Optional.of(new ConsumerGroupHeartbeatResponse().setErrorCode(error.code()));
    }
}
