package io.kraft.broker.protocol.messages;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.schema.MessageSchema;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/** The registry of declared request/response schemas per API; the one place that ties keys to declarations. */
public final class ApiMessages {
    private static final Map<ApiKey, MessageSchema> REQUESTS = new EnumMap<>(ApiKey.class);
    private static final Map<ApiKey, MessageSchema> RESPONSES = new EnumMap<>(ApiKey.class);

    static {
        register(ApiKey.API_VERSIONS, ApiVersionsMessages.REQUEST, ApiVersionsMessages.RESPONSE);
        register(ApiKey.METADATA, MetadataMessages.REQUEST, MetadataMessages.RESPONSE);
        register(ApiKey.PRODUCE, ProduceMessages.REQUEST, ProduceMessages.RESPONSE);
        register(ApiKey.FETCH, FetchMessages.REQUEST, FetchMessages.RESPONSE);
        register(ApiKey.LIST_OFFSETS, ListOffsetsMessages.REQUEST, ListOffsetsMessages.RESPONSE);
        register(ApiKey.INIT_PRODUCER_ID, InitProducerIdMessages.REQUEST, InitProducerIdMessages.RESPONSE);
        register(ApiKey.FIND_COORDINATOR, FindCoordinatorMessages.REQUEST, FindCoordinatorMessages.RESPONSE);
        register(ApiKey.CREATE_TOPICS, CreateTopicsMessages.REQUEST, CreateTopicsMessages.RESPONSE);
        register(ApiKey.DELETE_TOPICS, DeleteTopicsMessages.REQUEST, DeleteTopicsMessages.RESPONSE);
        register(ApiKey.CREATE_PARTITIONS, CreatePartitionsMessages.REQUEST, CreatePartitionsMessages.RESPONSE);
        register(ApiKey.DESCRIBE_CONFIGS, DescribeConfigsMessages.REQUEST, DescribeConfigsMessages.RESPONSE);
        register(ApiKey.ALTER_CONFIGS, AlterConfigsMessages.REQUEST, AlterConfigsMessages.RESPONSE);
        register(ApiKey.INCREMENTAL_ALTER_CONFIGS, IncrementalAlterConfigsMessages.REQUEST,
                IncrementalAlterConfigsMessages.RESPONSE);
        register(ApiKey.OFFSET_FOR_LEADER_EPOCH, OffsetForLeaderEpochMessages.REQUEST,
                OffsetForLeaderEpochMessages.RESPONSE);
        register(ApiKey.DELETE_RECORDS, DeleteRecordsMessages.REQUEST, DeleteRecordsMessages.RESPONSE);
        register(ApiKey.DESCRIBE_CLUSTER, DescribeClusterMessages.REQUEST, DescribeClusterMessages.RESPONSE);
        register(ApiKey.OFFSET_COMMIT, OffsetCommitMessages.REQUEST, OffsetCommitMessages.RESPONSE);
        register(ApiKey.OFFSET_FETCH, OffsetFetchMessages.REQUEST, OffsetFetchMessages.RESPONSE);
        register(ApiKey.JOIN_GROUP, JoinGroupMessages.REQUEST, JoinGroupMessages.RESPONSE);
        register(ApiKey.SYNC_GROUP, SyncGroupMessages.REQUEST, SyncGroupMessages.RESPONSE);
        register(ApiKey.HEARTBEAT, HeartbeatMessages.REQUEST, HeartbeatMessages.RESPONSE);
        register(ApiKey.LEAVE_GROUP, LeaveGroupMessages.REQUEST, LeaveGroupMessages.RESPONSE);
        register(ApiKey.DESCRIBE_GROUPS, DescribeGroupsMessages.REQUEST, DescribeGroupsMessages.RESPONSE);
        register(ApiKey.LIST_GROUPS, ListGroupsMessages.REQUEST, ListGroupsMessages.RESPONSE);
        register(ApiKey.DELETE_GROUPS, DeleteGroupsMessages.REQUEST, DeleteGroupsMessages.RESPONSE);
        register(ApiKey.SASL_HANDSHAKE, SaslHandshakeMessages.REQUEST, SaslHandshakeMessages.RESPONSE);
        register(ApiKey.SASL_AUTHENTICATE, SaslAuthenticateMessages.REQUEST, SaslAuthenticateMessages.RESPONSE);
        register(ApiKey.ADD_PARTITIONS_TO_TXN, AddPartitionsToTxnMessages.REQUEST, AddPartitionsToTxnMessages.RESPONSE);
        register(ApiKey.ADD_OFFSETS_TO_TXN, AddOffsetsToTxnMessages.REQUEST, AddOffsetsToTxnMessages.RESPONSE);
        register(ApiKey.END_TXN, EndTxnMessages.REQUEST, EndTxnMessages.RESPONSE);
        register(ApiKey.WRITE_TXN_MARKERS, WriteTxnMarkersMessages.REQUEST, WriteTxnMarkersMessages.RESPONSE);
        register(ApiKey.TXN_OFFSET_COMMIT, TxnOffsetCommitMessages.REQUEST, TxnOffsetCommitMessages.RESPONSE);
        register(ApiKey.DESCRIBE_ACLS, DescribeAclsMessages.REQUEST, DescribeAclsMessages.RESPONSE);
        register(ApiKey.CREATE_ACLS, CreateAclsMessages.REQUEST, CreateAclsMessages.RESPONSE);
        register(ApiKey.DELETE_ACLS, DeleteAclsMessages.REQUEST, DeleteAclsMessages.RESPONSE);
        register(ApiKey.OFFSET_DELETE, OffsetDeleteMessages.REQUEST, OffsetDeleteMessages.RESPONSE);
        register(ApiKey.DESCRIBE_PRODUCERS, DescribeProducersMessages.REQUEST, DescribeProducersMessages.RESPONSE);
        register(ApiKey.DESCRIBE_TRANSACTIONS, DescribeTransactionsMessages.REQUEST,
                DescribeTransactionsMessages.RESPONSE);
        register(ApiKey.LIST_TRANSACTIONS, ListTransactionsMessages.REQUEST, ListTransactionsMessages.RESPONSE);
        register(ApiKey.CONSUMER_GROUP_HEARTBEAT, ConsumerGroupHeartbeatMessages.REQUEST,
                ConsumerGroupHeartbeatMessages.RESPONSE);
        register(ApiKey.CONSUMER_GROUP_DESCRIBE, ConsumerGroupDescribeMessages.REQUEST,
                ConsumerGroupDescribeMessages.RESPONSE);
    }

    private ApiMessages() {
    }

    private static void register(ApiKey api, MessageSchema request, MessageSchema response) {
        for (MessageSchema schema : new MessageSchema[] {request, response}) {
            if (!schema.validVersions().equals(api.acceptedVersions())) {
                throw new IllegalStateException(schema.name() + " declares " + schema.validVersions()
                        + " but " + api.apiName() + " accepts " + api.acceptedVersions());
            }
            for (short v = schema.validVersions().lowest(); v <= schema.validVersions().highest(); v++) {
                if (schema.isFlexible(v) != api.isFlexible(v)) {
                    throw new IllegalStateException(schema.name() + " and " + api.apiName()
                            + " disagree on whether v" + v + " is flexible");
                }
            }
        }
        REQUESTS.put(api, request);
        RESPONSES.put(api, response);
    }

    public static boolean isDeclared(ApiKey api) {
        return REQUESTS.containsKey(api);
    }

    /** The request schema of {@code api}; throws if it is not declared. */
    public static MessageSchema requestSchema(ApiKey api) {
        return require(REQUESTS.get(api), api);
    }

    /** The response schema of {@code api}; throws if it is not declared. */
    public static MessageSchema responseSchema(ApiKey api) {
        return require(RESPONSES.get(api), api);
    }

    /** APIs with declared schemas. */
    public static Set<ApiKey> declared() {
        return Collections.unmodifiableSet(REQUESTS.keySet());
    }

    private static MessageSchema require(MessageSchema schema, ApiKey api) {
        if (schema == null) {
            throw new IllegalArgumentException(api.apiName() + " has no declared schema");
        }
        return schema;
    }
}
