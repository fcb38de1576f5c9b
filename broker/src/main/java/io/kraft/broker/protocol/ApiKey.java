package io.kraft.broker.protocol;

import io.kraft.broker.protocol.Versions;

/**
 * Every Kafka API this platform serves, with the versions it accepts, the versions it advertises in
 * ApiVersions (a superset where old clients key features off an exact advertised version), and the
 * first flexible version (KIP-482). Ranges per ../shared/PROTOCOL.md.
 */
public enum ApiKey {
    PRODUCE(0, "Produce", "3-12", "0-12", "9+"),
    FETCH(1, "Fetch", "4-17", "4-17", "12+"),
    LIST_OFFSETS(2, "ListOffsets", "1-10", "1-10", "6+"),
    METADATA(3, "Metadata", "0-13", "0-13", "9+"),
    OFFSET_COMMIT(8, "OffsetCommit", "2-9", "2-9", "8+"),
    OFFSET_FETCH(9, "OffsetFetch", "1-9", "1-9", "6+"),
    FIND_COORDINATOR(10, "FindCoordinator", "0-6", "0-6", "3+"),
    JOIN_GROUP(11, "JoinGroup", "0-9", "0-9", "6+"),
    HEARTBEAT(12, "Heartbeat", "0-4", "0-4", "4+"),
    LEAVE_GROUP(13, "LeaveGroup", "0-5", "0-5", "4+"),
    SYNC_GROUP(14, "SyncGroup", "0-5", "0-5", "4+"),
    DESCRIBE_GROUPS(15, "DescribeGroups", "0-6", "0-6", "5+"),
    LIST_GROUPS(16, "ListGroups", "0-5", "0-5", "3+"),
    SASL_HANDSHAKE(17, "SaslHandshake", "0-1", "0-1", "none"),
    API_VERSIONS(18, "ApiVersions", "0-5", "0-5", "3+"),
    CREATE_TOPICS(19, "CreateTopics", "2-7", "2-7", "5+"),
    DELETE_TOPICS(20, "DeleteTopics", "1-6", "1-6", "4+"),
    DELETE_RECORDS(21, "DeleteRecords", "0-2", "0-2", "2+"),
    INIT_PRODUCER_ID(22, "InitProducerId", "0-5", "0-5", "2+"),
    OFFSET_FOR_LEADER_EPOCH(23, "OffsetForLeaderEpoch", "2-4", "2-4", "4+"),
    ADD_PARTITIONS_TO_TXN(24, "AddPartitionsToTxn", "0-5", "0-5", "3+"),
    ADD_OFFSETS_TO_TXN(25, "AddOffsetsToTxn", "0-4", "0-4", "3+"),
    END_TXN(26, "EndTxn", "0-5", "0-5", "3+"),
    WRITE_TXN_MARKERS(27, "WriteTxnMarkers", "1", "1", "1+"),
    TXN_OFFSET_COMMIT(28, "TxnOffsetCommit", "0-5", "0-5", "3+"),
    DESCRIBE_ACLS(29, "DescribeAcls", "1-3", "1-3", "2+"),
    CREATE_ACLS(30, "CreateAcls", "1-3", "1-3", "2+"),
    DELETE_ACLS(31, "DeleteAcls", "1-3", "1-3", "2+"),
    DESCRIBE_CONFIGS(32, "DescribeConfigs", "1-4", "1-4", "4+"),
    ALTER_CONFIGS(33, "AlterConfigs", "0-2", "0-2", "2+"),
    ALTER_REPLICA_LOG_DIRS(34, "AlterReplicaLogDirs", "1-2", "1-2", "2+"),
    DESCRIBE_LOG_DIRS(35, "DescribeLogDirs", "1-5", "1-5", "2+"),
    SASL_AUTHENTICATE(36, "SaslAuthenticate", "0-2", "0-2", "2+"),
    CREATE_PARTITIONS(37, "CreatePartitions", "0-3", "0-3", "2+"),
    DELETE_GROUPS(42, "DeleteGroups", "0-2", "0-2", "2+"),
    ELECT_LEADERS(43, "ElectLeaders", "0-2", "0-2", "2+"),
    INCREMENTAL_ALTER_CONFIGS(44, "IncrementalAlterConfigs", "0-1", "0-1", "1+"),
    ALTER_PARTITION_REASSIGNMENTS(45, "AlterPartitionReassignments", "0-1", "0-1", "0+"),
    LIST_PARTITION_REASSIGNMENTS(46, "ListPartitionReassignments", "0", "0", "0+"),
    OFFSET_DELETE(47, "OffsetDelete", "0", "0", "none"),
    DESCRIBE_CLIENT_QUOTAS(48, "DescribeClientQuotas", "0-1", "0-1", "1+"),
    ALTER_CLIENT_QUOTAS(49, "AlterClientQuotas", "0-1", "0-1", "1+"),
    DESCRIBE_USER_SCRAM_CREDENTIALS(50, "DescribeUserScramCredentials", "0", "0", "0+"),
    ALTER_USER_SCRAM_CREDENTIALS(51, "AlterUserScramCredentials", "0", "0", "0+"),
    DESCRIBE_QUORUM(55, "DescribeQuorum", "0-2", "0-2", "0+"),
    UPDATE_FEATURES(57, "UpdateFeatures", "0-2", "0-2", "0+"),
    DESCRIBE_CLUSTER(60, "DescribeCluster", "0-2", "0-2", "0+"),
    DESCRIBE_PRODUCERS(61, "DescribeProducers", "0", "0", "0+"),
    UNREGISTER_BROKER(64, "UnregisterBroker", "0", "0", "0+"),
    DESCRIBE_TRANSACTIONS(65, "DescribeTransactions", "0", "0", "0+"),
    LIST_TRANSACTIONS(66, "ListTransactions", "0-2", "0-2", "0+"),
    CONSUMER_GROUP_HEARTBEAT(68, "ConsumerGroupHeartbeat", "0-1", "0-1", "0+"),
    CONSUMER_GROUP_DESCRIBE(69, "ConsumerGroupDescribe", "0-1", "0-1", "0+"),
    DESCRIBE_TOPIC_PARTITIONS(75, "DescribeTopicPartitions", "0", "0", "0+"),
    // KIP-932 share groups; ShareFetch and ShareAcknowledge v2 (acquire modes, lock renewal) are not served yet.
    SHARE_GROUP_HEARTBEAT(76, "ShareGroupHeartbeat", "1", "1", "0+"),
    SHARE_GROUP_DESCRIBE(77, "ShareGroupDescribe", "1", "1", "0+"),
    SHARE_FETCH(78, "ShareFetch", "1", "1", "0+"),
    SHARE_ACKNOWLEDGE(79, "ShareAcknowledge", "1", "1", "0+"),
    // KIP-932's inter-broker share-partition state: the data partition's leader asks the share coordinator.
    READ_SHARE_GROUP_STATE(84, "ReadShareGroupState", "0", "0", "0+"),
    WRITE_SHARE_GROUP_STATE(85, "WriteShareGroupState", "0", "0", "0+"),
    ADD_RAFT_VOTER(80, "AddRaftVoter", "0-1", "0-1", "0+"),
    REMOVE_RAFT_VOTER(81, "RemoveRaftVoter", "0", "0", "0+");

    private static final ApiKey[] BY_ID = new ApiKey[128];

    static {
        for (ApiKey key : values()) {
            BY_ID[key.id] = key;
        }
    }

    private final short id;
    private final String apiName;
    private final Versions accepted;
    private final Versions advertised;
    private final Versions flexible;

    ApiKey(int id, String apiName, String accepted, String advertised, String flexible) {
        this.id = (short) id;
        this.apiName = apiName;
        this.accepted = Versions.parse(accepted);
        this.advertised = Versions.parse(advertised);
        this.flexible = Versions.parse(flexible);
    }

    /** The key with this id, or null if the platform does not know it. */
    public static ApiKey forId(int id) {
        return id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    }

    public short id() {
        return id;
    }

    /** The protocol guide's name, e.g. "ApiVersions". */
    public String apiName() {
        return apiName;
    }

    /** Versions whose requests are parsed and served. */
    public Versions acceptedVersions() {
        return accepted;
    }

    /** Versions listed in ApiVersions responses; contains {@link #acceptedVersions()}. */
    public Versions advertisedVersions() {
        return advertised;
    }

    public boolean isFlexible(short version) {
        return flexible.contains(version);
    }

    /** Request header version: 2 in flexible versions, else 1 (KIP-482). */
    public short requestHeaderVersion(short version) {
        return (short) (isFlexible(version) ? 2 : 1);
    }

    /**
     * Response header version: 1 in flexible versions, else 0; ApiVersions always answers with
     * header v0 so a client that sent a version the broker does not know can still read the reply
     * (KIP-511).
     */
    public short responseHeaderVersion(short version) {
        if (this == API_VERSIONS) {
            return 0;
        }
        return (short) (isFlexible(version) ? 1 : 0);
    }
}
