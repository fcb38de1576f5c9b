package io.kraft.broker.api;

import io.kraft.broker.network.ApiHandler;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.AddOffsetsToTxnRequest;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ConsumerGroupHeartbeatRequest;
import io.kraft.broker.protocol.message.EndTxnRequest;
import io.kraft.broker.protocol.message.HeartbeatRequest;
import io.kraft.broker.protocol.message.JoinGroupRequest;
import io.kraft.broker.protocol.message.LeaveGroupRequest;
import io.kraft.broker.protocol.message.SyncGroupRequest;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The APIs whose whole request stands or falls with one ACL check (Kafka's mapping): the cluster operations
 * (ElectLeaders, reassignments, DescribeLogDirs and DescribeQuorum, WriteTxnMarkers) and the requests of one group or
 * one transactional id (JoinGroup, SyncGroup, Heartbeat, LeaveGroup, ConsumerGroupHeartbeat, EndTxn,
 * AddOffsetsToTxn). A denied request is answered with the API's all-failed response carrying the authorization
 * error. Handlers are wrapped only on a broker with an authorizer, so a broker without one runs them as they are.
 */
public final class AuthorizationGates {
    /** One check: the operation on a resource named by the request, and the error when it is denied. */
    private record Check(AclOperation operation, ResourceType type, Function<ApiMessage, String> name, Errors error) {
    }

    private static final Map<ApiKey, List<Check>> CHECKS = new EnumMap<>(ApiKey.class);

    static {
        cluster(ApiKey.ELECT_LEADERS, AclOperation.ALTER);
        cluster(ApiKey.UNREGISTER_BROKER, AclOperation.ALTER);
        cluster(ApiKey.ALTER_PARTITION_REASSIGNMENTS, AclOperation.ALTER);
        cluster(ApiKey.LIST_PARTITION_REASSIGNMENTS, AclOperation.DESCRIBE);
        cluster(ApiKey.ALTER_REPLICA_LOG_DIRS, AclOperation.ALTER);
        cluster(ApiKey.DESCRIBE_LOG_DIRS, AclOperation.DESCRIBE);
        cluster(ApiKey.DESCRIBE_QUORUM, AclOperation.DESCRIBE);
        cluster(ApiKey.ADD_RAFT_VOTER, AclOperation.ALTER);
        cluster(ApiKey.REMOVE_RAFT_VOTER, AclOperation.ALTER);
        cluster(ApiKey.UPDATE_FEATURES, AclOperation.ALTER);
        cluster(ApiKey.WRITE_TXN_MARKERS, AclOperation.CLUSTER_ACTION);
        cluster(ApiKey.READ_SHARE_GROUP_STATE, AclOperation.CLUSTER_ACTION);
        cluster(ApiKey.WRITE_SHARE_GROUP_STATE, AclOperation.CLUSTER_ACTION);
        group(ApiKey.JOIN_GROUP, body -> ((JoinGroupRequest) body).groupId());
        group(ApiKey.SYNC_GROUP, body -> ((SyncGroupRequest) body).groupId());
        group(ApiKey.HEARTBEAT, body -> ((HeartbeatRequest) body).groupId());
        group(ApiKey.LEAVE_GROUP, body -> ((LeaveGroupRequest) body).groupId());
        group(ApiKey.CONSUMER_GROUP_HEARTBEAT, body -> ((ConsumerGroupHeartbeatRequest) body).groupId());
        transactional(ApiKey.END_TXN, body -> ((EndTxnRequest) body).transactionalId());
        transactional(ApiKey.ADD_OFFSETS_TO_TXN, body -> ((AddOffsetsToTxnRequest) body).transactionalId());
        group(ApiKey.ADD_OFFSETS_TO_TXN, body -> ((AddOffsetsToTxnRequest) body).groupId());
    }

    private AuthorizationGates() {
    }

    private static void add(ApiKey api, Check check) {
        CHECKS.computeIfAbsent(api, key -> new ArrayList<>()).add(check);
    }

    private static void cluster(ApiKey api, AclOperation operation) {
        add(api, new Check(operation, ResourceType.CLUSTER, body -> StandardAcl.CLUSTER_NAME,
                Errors.CLUSTER_AUTHORIZATION_FAILED));
    }

    private static void group(ApiKey api, Function<ApiMessage, String> groupId) {
        add(api, new Check(AclOperation.READ, ResourceType.GROUP, groupId, Errors.GROUP_AUTHORIZATION_FAILED));
    }

    private static void transactional(ApiKey api, Function<ApiMessage, String> transactionalId) {
        add(api, new Check(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId,
                Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED));
    }

    /** The handlers with those APIs gated. */
    public static List<ApiHandler> wrap(Collection<? extends ApiHandler> handlers) {
        List<ApiHandler> wrapped = new ArrayList<>(handlers.size());
        for (ApiHandler handler : handlers) {
            List<Check> checks = CHECKS.get(handler.apiKey());
            if (checks == null) {
                wrapped.add(handler);
            } else {
                AsyncRequestHandler<?, ?> async = handler instanceof RequestHandler<?, ?> sync
                        ? AsyncRequestHandler.of(sync) : (AsyncRequestHandler<?, ?>) handler;
                wrapped.add(gate(async, checks));
            }
        }
        return wrapped;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static AsyncRequestHandler<?, ?> gate(AsyncRequestHandler<?, ?> handler, List<Check> checks) {
        return gated((AsyncRequestHandler) handler, checks);
    }

    private static <Q extends ApiMessage, R extends ApiMessage> AsyncRequestHandler<Q, R> gated(
            AsyncRequestHandler<Q, R> handler, List<Check> checks) {
        return new AsyncRequestHandler<>() {
            @Override
            public ApiKey apiKey() {
                return handler.apiKey();
            }

            @Override
            public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<Q> request) {
                for (Check check : checks) {
                    if (!context.authorize(check.operation(), check.type(), check.name().apply(request.body()))) {
                        R denied = handler.errorResponse(request, check.error()).orElseThrow(() ->
                                new IllegalStateException(handler + " has no error response"));
                        return CompletableFuture.completedFuture(HandlerResponse.of(denied));
                    }
                }
                return handler.handle(context, request);
            }

            @Override
            public Optional<R> errorResponse(ApiRequest<Q> request, Errors error) {
                return handler.errorResponse(request, error);
            }

            @Override
            public String toString() {
                return handler.toString();
            }
        };
    }
}
