package io.kraft.broker.group;

import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The coordinator's requests and answers as plain values, independent of the wire versions they came in. */
public final class GroupApi {
    private GroupApi() {
    }

    /** A protocol (assignor) a member supports, with its subscription metadata. */
    public record Protocol(String name, byte[] metadata) {
        public Protocol {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(metadata, "metadata");
        }
    }

    /**
     * A JoinGroup request.
     *
     * @param memberId             empty for a member joining for the first time
     * @param groupInstanceId      the static member's id (KIP-345), or null
     * @param rebalanceTimeoutMs   -1 before v1 (the session timeout is used)
     * @param requireKnownMemberId v4+: a dynamic member without an id first gets one with MEMBER_ID_REQUIRED (KIP-394)
     * @param supportsSkipAssignment v9+: a rejoining static leader may be told to keep the current assignment (KIP-814)
     */
    public record JoinRequest(String groupId, String memberId, String groupInstanceId, String clientId,
                              String clientHost, int sessionTimeoutMs, int rebalanceTimeoutMs, String protocolType,
                              List<Protocol> protocols, boolean requireKnownMemberId,
                              boolean supportsSkipAssignment) {
        public JoinRequest {
            protocols = List.copyOf(protocols);
        }
    }

    /** One member as the leader sees it in a JoinGroup answer. */
    public record JoinedMember(String memberId, String groupInstanceId, byte[] metadata) {
    }

    /** A JoinGroup answer; {@code members} is filled only for the leader. */
    public record JoinResult(Errors error, int generationId, String protocolType, String protocolName,
                             String leaderId, String memberId, boolean skipAssignment, List<JoinedMember> members) {
        public JoinResult {
            members = List.copyOf(members);
        }

        static JoinResult failed(Errors error, String memberId) {
            return new JoinResult(error, -1, null, null, "", memberId, false, List.of());
        }
    }

    /** A SyncGroup request; only the leader sends assignments. */
    public record SyncRequest(String groupId, int generationId, String memberId, String groupInstanceId,
                              String protocolType, String protocolName, Map<String, byte[]> assignments) {
        public SyncRequest {
            assignments = Map.copyOf(assignments);
        }
    }

    /** A SyncGroup answer: this member's assignment. */
    public record SyncResult(Errors error, String protocolType, String protocolName, byte[] assignment) {
        static SyncResult failed(Errors error) {
            return new SyncResult(error, null, null, new byte[0]);
        }
    }

    /** A Heartbeat request. */
    public record HeartbeatRequest(String groupId, int generationId, String memberId, String groupInstanceId) {
    }

    /** One member a LeaveGroup request removes: by member id, by instance id, or both. */
    public record LeavingMember(String memberId, String groupInstanceId) {
    }

    /** A LeaveGroup answer: a group-level error, else one error per member in request order. */
    public record LeaveResult(Errors error, List<Errors> memberErrors) {
        public LeaveResult {
            memberErrors = List.copyOf(memberErrors);
        }
    }

    /** One partition's offset in an OffsetCommit request. */
    public record PartitionCommit(OffsetKey partition, long offset, int leaderEpoch, String metadata) {
    }

    /**
     * An OffsetCommit request.
     *
     * @param generationId      -1 with an empty member id for a simple commit (assign() consumers, admin tools)
     * @param retentionTimeMs   v2-4 explicit retention, -1 for the broker's
     */
    public record CommitRequest(String groupId, int generationId, String memberId, String groupInstanceId,
                                long retentionTimeMs, List<PartitionCommit> partitions) {
        public CommitRequest {
            partitions = List.copyOf(partitions);
        }
    }

    /**
     * A TxnOffsetCommit request: offsets committed in the producer's transaction (KIP-98), with the consumer's group
     * metadata from v3 on (KIP-447) for generation fencing.
     *
     * @param generationId -1 when the client sent no group metadata (v0-2), which skips the generation check
     * @param memberId     empty when the client sent no group metadata, which skips the member check
     */
    public record TxnCommitRequest(String transactionalId, String groupId, long producerId, short producerEpoch,
                                   int generationId, String memberId, String groupInstanceId,
                                   List<PartitionCommit> partitions) {
        public TxnCommitRequest {
            partitions = List.copyOf(partitions);
        }
    }

    /** A committed offset as OffsetFetch reports it; offset -1 when nothing is committed. */
    public record FetchedOffset(OffsetKey partition, long offset, int leaderEpoch, String metadata, Errors error) {
    }

    /** An OffsetFetch answer for one group. */
    public record OffsetFetchResult(Errors error, List<FetchedOffset> offsets) {
        public OffsetFetchResult {
            offsets = List.copyOf(offsets);
        }
    }

    /** A group as ListGroups reports it. */
    public record ListedGroup(String groupId, String protocolType, GroupState state, String groupType,
                              String stateName) {
        /** A classic group. */
        public ListedGroup(String groupId, String protocolType, GroupState state) {
            this(groupId, protocolType, state, "classic", state.wireName());
        }
    }

    /** A ListGroups answer: the error is COORDINATOR_LOAD_IN_PROGRESS while a partition still loads. */
    public record ListGroupsResult(Errors error, List<ListedGroup> groups) {
        public ListGroupsResult {
            groups = List.copyOf(groups);
        }
    }

    /** One member as DescribeGroups reports it. */
    public record DescribedMember(String memberId, String groupInstanceId, String clientId, String clientHost,
                                  byte[] metadata, byte[] assignment) {
    }

    /**
     * A DescribeGroups answer for one group; {@code stateName} is what the answer says: the classic state's name, or a
     * consumer-protocol group's own state (KIP-848: Assigning, Reconciling...).
     */
    public record DescribedGroup(Errors error, String groupId, GroupState state, String stateName,
                                 String protocolType, String protocolData, List<DescribedMember> members) {
        public DescribedGroup {
            members = List.copyOf(members);
        }

        /** A classic group. */
        public DescribedGroup(Errors error, String groupId, GroupState state, String protocolType,
                              String protocolData, List<DescribedMember> members) {
            this(error, groupId, state, state.wireName(), protocolType, protocolData, members);
        }
    }

    /** An OffsetDelete answer: a group-level error, else one error per partition. */
    public record OffsetDeleteResult(Errors error, Map<OffsetKey, Errors> partitionErrors) {
        public OffsetDeleteResult {
            partitionErrors = Map.copyOf(partitionErrors);
        }
    }
}
