package io.kraft.server.group;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.message.ConsumerProtocolAssignment;
import io.kraft.broker.protocol.message.ConsumerProtocolSubscription;
import io.kraft.broker.protocol.message.DeleteGroupsRequest;
import io.kraft.broker.protocol.message.DeleteGroupsResponse;
import io.kraft.broker.protocol.message.DescribeGroupsRequest;
import io.kraft.broker.protocol.message.DescribeGroupsResponse;
import io.kraft.broker.protocol.message.FindCoordinatorRequest;
import io.kraft.broker.protocol.message.FindCoordinatorResponse;
import io.kraft.broker.protocol.message.HeartbeatRequest;
import io.kraft.broker.protocol.message.HeartbeatResponse;
import io.kraft.broker.protocol.message.JoinGroupRequest;
import io.kraft.broker.protocol.message.JoinGroupResponse;
import io.kraft.broker.protocol.message.LeaveGroupRequest;
import io.kraft.broker.protocol.message.LeaveGroupResponse;
import io.kraft.broker.protocol.message.ListGroupsRequest;
import io.kraft.broker.protocol.message.ListGroupsResponse;
import io.kraft.broker.protocol.message.OffsetCommitRequest;
import io.kraft.broker.protocol.message.OffsetCommitResponse;
import io.kraft.broker.protocol.message.OffsetDeleteRequest;
import io.kraft.broker.protocol.message.OffsetDeleteResponse;
import io.kraft.broker.protocol.message.OffsetFetchRequest;
import io.kraft.broker.protocol.message.OffsetFetchResponse;
import io.kraft.broker.protocol.message.SyncGroupRequest;
import io.kraft.broker.protocol.message.SyncGroupResponse;
import io.kraft.server.TestNode;
import io.kraft.storage.errors.Errors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The eleven group APIs over a raw socket at the lowest and the highest version each accepts (FindCoordinator,
 * JoinGroup, SyncGroup, Heartbeat, OffsetCommit, OffsetFetch, DescribeGroups, ListGroups, OffsetDelete,
 * LeaveGroup, DeleteGroups), and bad input answered with the right code while the group stays as it was.
 */
class GroupApisWireTest {
    /** How long a lookup or a join may keep getting a retriable answer while the offsets topic comes up. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path dir;
    private static TestNode node;

    @BeforeAll
    static void startNode() throws Exception {
        node = GroupTests.node(dir).start();
        node.admin().createTopics(List.of(new NewTopic("wire", 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    private static short lowest(ApiKey api) {
        return api.acceptedVersions().lowest();
    }

    private static short highest(ApiKey api) {
        return api.acceptedVersions().highest();
    }

    private static short version(ApiKey api, boolean newest) {
        return newest ? highest(api) : lowest(api);
    }

    private static ByteBuffer subscription(String topic) {
        return new ConsumerProtocolSubscription().setTopics(new ArrayList<>(List.of(topic))).toVersionedBuffer((short) 0);
    }

    private static ByteBuffer assignment(String topic, Integer... partitions) {
        ConsumerProtocolAssignment assignment = new ConsumerProtocolAssignment();
        assignment.assignedPartitions().add(new ConsumerProtocolAssignment.TopicPartition()
                .setTopic(topic).setPartitions(new ArrayList<>(List.of(partitions))));
        return assignment.toVersionedBuffer((short) 0);
    }

    /** One FindCoordinator answer: the first key's when several are batched. */
    private record Found(short errorCode, int nodeId, int port) {
    }

    /** FindCoordinator until the offsets topic exists and the group's coordinator answers. */
    private static void findCoordinator(WireClient client, String group, boolean newest) {
        FindCoordinatorRequest request = new FindCoordinatorRequest();
        if (newest) {
            request.setCoordinatorKeys(new ArrayList<>(List.of(group, group + "-other")));
        } else {
            request.setKey(group);
        }
        short version = version(ApiKey.FIND_COORDINATOR, newest);
        Found found = await("a coordinator for " + group).atMost(WAIT).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100)).pollInSameThread()
                .until(() -> findOnce(client, request, version, newest),
                        answer -> answer.errorCode() != Errors.COORDINATOR_NOT_AVAILABLE.code());
        assertEquals(Errors.NONE.code(), found.errorCode(),
                "only COORDINATOR_NOT_AVAILABLE is retriable (while the offsets topic is created)");
        assertEquals(1, found.nodeId());
        assertEquals(node.port(), found.port());
    }

    private static Found findOnce(WireClient client, FindCoordinatorRequest request, short version, boolean newest)
            throws IOException {
        FindCoordinatorResponse response = client.send(request, version);
        if (newest) {
            List<FindCoordinatorResponse.Coordinator> coordinators = response.coordinators();
            assertEquals(2, coordinators.size(), "one answer per batched key");
            FindCoordinatorResponse.Coordinator first = coordinators.get(0);
            return new Found(first.errorCode(), first.nodeId(), first.port());
        }
        return new Found(response.errorCode(), response.nodeId(), response.port());
    }

    /** JoinGroup, again while the coordinator still loads the group's partition (clients retry that too). */
    private static JoinGroupResponse join(WireClient client, String group, String memberId, String protocolType,
                                          boolean newest) {
        return await("JoinGroup of " + group + " once its coordinator has loaded").atMost(WAIT)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50)).pollInSameThread()
                .until(() -> joinOnce(client, group, memberId, protocolType, newest),
                        response -> response.errorCode() != Errors.COORDINATOR_LOAD_IN_PROGRESS.code());
    }

    private static JoinGroupResponse joinOnce(WireClient client, String group, String memberId, String protocolType,
                                              boolean newest) throws IOException {
        JoinGroupRequest request = new JoinGroupRequest()
                .setGroupId(group)
                .setSessionTimeoutMs(10_000)
                .setRebalanceTimeoutMs(10_000)
                .setMemberId(memberId)
                .setProtocolType(protocolType);
        request.protocols().add(new JoinGroupRequest.JoinGroupRequestProtocol()
                .setName("range")
                .setMetadata(subscription("wire")));
        return client.send(request, version(ApiKey.JOIN_GROUP, newest));
    }

    /** A one-member group, joined and synced at the given end of every version range; returns member id. */
    private static String stableGroup(WireClient client, String group, boolean newest) throws Exception {
        findCoordinator(client, group, newest);
        JoinGroupResponse joined = join(client, group, "", "consumer", newest);
        String memberId = joined.memberId();
        if (newest) {
            assertEquals(Errors.MEMBER_ID_REQUIRED.code(), joined.errorCode(), "KIP-394 from v4");
            joined = join(client, group, memberId, "consumer", true);
        }
        assertEquals(Errors.NONE.code(), joined.errorCode());
        assertEquals(1, joined.generationId());
        assertEquals(memberId, joined.leader());
        assertEquals("range", joined.protocolName());
        assertEquals(1, joined.members().size());

        ByteBuffer assignment = assignment("wire", 0, 1);
        SyncGroupRequest sync = new SyncGroupRequest()
                .setGroupId(group)
                .setGenerationId(1)
                .setMemberId(memberId)
                .setProtocolType("consumer")
                .setProtocolName("range");
        sync.assignments().add(new SyncGroupRequest.SyncGroupRequestAssignment()
                .setMemberId(memberId)
                .setAssignment(assignment));
        SyncGroupResponse synced = client.send(sync, version(ApiKey.SYNC_GROUP, newest));
        assertEquals(Errors.NONE.code(), synced.errorCode());
        assertEquals(assignment, synced.assignment());
        return memberId;
    }

    private static short heartbeat(WireClient client, String group, String memberId, int generation,
                                   boolean newest) throws IOException {
        HeartbeatRequest request = new HeartbeatRequest()
                .setGroupId(group)
                .setGenerationId(generation)
                .setMemberId(memberId);
        HeartbeatResponse response = client.send(request, version(ApiKey.HEARTBEAT, newest));
        return response.errorCode();
    }

    private static short commit(WireClient client, String group, String memberId, int generation, long offset,
                                String metadata, boolean newest) throws IOException {
        OffsetCommitRequest request = new OffsetCommitRequest()
                .setGroupId(group)
                .setGenerationIdOrMemberEpoch(generation)
                .setMemberId(memberId);
        OffsetCommitRequest.OffsetCommitRequestTopic topic = new OffsetCommitRequest.OffsetCommitRequestTopic()
                .setName("wire");
        topic.partitions().add(new OffsetCommitRequest.OffsetCommitRequestPartition()
                .setPartitionIndex(1)
                .setCommittedOffset(offset)
                .setCommittedMetadata(metadata));
        request.topics().add(topic);
        OffsetCommitResponse response = client.send(request, version(ApiKey.OFFSET_COMMIT, newest));
        return response.topics().get(0).partitions().get(0).errorCode();
    }

    private static long fetchOffset(WireClient client, String group, boolean newest) throws IOException {
        OffsetFetchRequest request = new OffsetFetchRequest();
        if (newest) {
            OffsetFetchRequest.OffsetFetchRequestGroup groupRequest = new OffsetFetchRequest.OffsetFetchRequestGroup()
                    .setGroupId(group);
            groupRequest.topics().add(new OffsetFetchRequest.OffsetFetchRequestTopics()
                    .setName("wire")
                    .setPartitionIndexes(new ArrayList<>(List.of(1))));
            request.groups().add(groupRequest);
            OffsetFetchResponse response = client.send(request, version(ApiKey.OFFSET_FETCH, true));
            OffsetFetchResponse.OffsetFetchResponsePartitions partition =
                    response.groups().get(0).topics().get(0).partitions().get(0);
            assertEquals(Errors.NONE.code(), partition.errorCode());
            return partition.committedOffset();
        }
        request.setGroupId(group);
        request.topics().add(new OffsetFetchRequest.OffsetFetchRequestTopic()
                .setName("wire")
                .setPartitionIndexes(new ArrayList<>(List.of(1))));
        OffsetFetchResponse response = client.send(request, version(ApiKey.OFFSET_FETCH, false));
        OffsetFetchResponse.OffsetFetchResponsePartition partition = response.topics().get(0).partitions().get(0);
        assertEquals(Errors.NONE.code(), partition.errorCode());
        return partition.committedOffset();
    }

    private static DescribeGroupsResponse.DescribedGroup describe(WireClient client, String group, boolean newest)
            throws IOException {
        DescribeGroupsRequest request = new DescribeGroupsRequest().setGroups(new ArrayList<>(List.of(group)));
        DescribeGroupsResponse response = client.send(request, version(ApiKey.DESCRIBE_GROUPS, newest));
        return response.groups().get(0);
    }

    private static List<ListGroupsResponse.ListedGroup> listGroups(WireClient client, boolean newest,
                                                                   String stateFilter) throws IOException {
        ListGroupsRequest request = new ListGroupsRequest();
        if (stateFilter != null) {
            request.statesFilter().add(stateFilter);
        }
        ListGroupsResponse response = client.send(request, version(ApiKey.LIST_GROUPS, newest));
        assertEquals(Errors.NONE.code(), response.errorCode());
        return response.groups();
    }

    private static short deleteGroup(WireClient client, String group, boolean newest) throws IOException {
        DeleteGroupsRequest request = new DeleteGroupsRequest().setGroupsNames(new ArrayList<>(List.of(group)));
        DeleteGroupsResponse response = client.send(request, version(ApiKey.DELETE_GROUPS, newest));
        return response.results().get(0).errorCode();
    }

    private void lifecycleAtOneEndOfEveryRange(boolean newest) throws Exception {
        String group = newest ? "wire-newest" : "wire-oldest";
        try (WireClient client = new WireClient(node.port())) {
            String memberId = stableGroup(client, group, newest);
            assertEquals(Errors.NONE.code(), heartbeat(client, group, memberId, 1, newest));
            assertEquals(Errors.NONE.code(), commit(client, group, memberId, 1, 11, "m", newest));
            assertEquals(11, fetchOffset(client, group, newest));

            DescribeGroupsResponse.DescribedGroup described = describe(client, group, newest);
            assertEquals("Stable", described.groupState());
            assertEquals("range", described.protocolData());
            assertEquals("wire-test", described.members().get(0).clientId());
            assertEquals("/127.0.0.1", described.members().get(0).clientHost());
            assertTrue(listGroups(client, newest, null).stream().anyMatch(g -> g.groupId().equals(group)));
            if (newest) {
                assertTrue(listGroups(client, true, "stable").stream()
                        .anyMatch(g -> g.groupId().equals(group)), "state filters ignore case");
                assertFalse(listGroups(client, true, "Empty").stream()
                        .anyMatch(g -> g.groupId().equals(group)));
            }

            OffsetDeleteRequest deleteOffsets = new OffsetDeleteRequest().setGroupId(group);
            OffsetDeleteRequest.OffsetDeleteRequestTopic topic = new OffsetDeleteRequest.OffsetDeleteRequestTopic()
                    .setName("wire");
            topic.partitions().add(new OffsetDeleteRequest.OffsetDeleteRequestPartition().setPartitionIndex(1));
            deleteOffsets.topics().add(topic);
            OffsetDeleteResponse deleted = client.send(deleteOffsets, version(ApiKey.OFFSET_DELETE, newest));
            assertEquals(Errors.GROUP_SUBSCRIBED_TO_TOPIC.code(),
                    deleted.topics().get(0).partitions().get(0).errorCode());

            assertEquals(Errors.NON_EMPTY_GROUP.code(), deleteGroup(client, group, newest));

            LeaveGroupRequest leaveRequest = new LeaveGroupRequest().setGroupId(group);
            if (newest) {
                leaveRequest.members().add(new LeaveGroupRequest.MemberIdentity().setMemberId(memberId));
                leaveRequest.members().add(new LeaveGroupRequest.MemberIdentity().setMemberId("ghost"));
                LeaveGroupResponse left = client.send(leaveRequest, version(ApiKey.LEAVE_GROUP, true));
                assertEquals(Errors.NONE.code(), left.errorCode());
                assertEquals(Errors.NONE.code(), left.members().get(0).errorCode());
                assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), left.members().get(1).errorCode());
            } else {
                leaveRequest.setMemberId(memberId);
                LeaveGroupResponse left = client.send(leaveRequest, version(ApiKey.LEAVE_GROUP, false));
                assertEquals(Errors.NONE.code(), left.errorCode());
            }
            assertEquals("Empty", describe(client, group, newest).groupState());
            assertEquals(Errors.NONE.code(), deleteGroup(client, group, newest));
            DescribeGroupsResponse.DescribedGroup gone = describe(client, group, newest);
            assertEquals("Dead", gone.groupState());
            assertEquals(newest ? Errors.GROUP_ID_NOT_FOUND.code() : Errors.NONE.code(),
                    gone.errorCode(), "v6 reports an unknown group as GROUP_ID_NOT_FOUND");
            assertEquals(-1, fetchOffset(client, group, newest), "the group's offsets went with it");
        }
    }

    @Test
    void everyGroupApiWorksAtItsLowestVersion() throws Exception {
        lifecycleAtOneEndOfEveryRange(false);
    }

    @Test
    void everyGroupApiWorksAtItsHighestVersion() throws Exception {
        lifecycleAtOneEndOfEveryRange(true);
    }

    @Test
    void badInputGetsItsErrorAndLeavesTheGroupAsItWas() throws Exception {
        String group = "wire-bad-input";
        try (WireClient client = new WireClient(node.port())) {
            String memberId = stableGroup(client, group, true);
            assertEquals(Errors.NONE.code(), commit(client, group, memberId, 1, 5, "", true));

            assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), commit(client, group, "ghost", 1, 9, "", true));
            assertEquals(Errors.ILLEGAL_GENERATION.code(), commit(client, group, memberId, 0, 9, "", true));
            assertEquals(Errors.OFFSET_METADATA_TOO_LARGE.code(),
                    commit(client, group, memberId, 1, 9, "x".repeat(4_097), true));
            JoinGroupResponse otherType = join(client, group, "", "connect", true);
            assertEquals(Errors.INCONSISTENT_GROUP_PROTOCOL.code(), otherType.errorCode());
            assertEquals(Errors.ILLEGAL_GENERATION.code(), heartbeat(client, group, memberId, 7, true));
            assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), heartbeat(client, group, "ghost", 1, true));

            DescribeGroupsResponse.DescribedGroup described = describe(client, group, true);
            assertEquals("Stable", described.groupState());
            assertEquals(1, described.members().size());
            assertEquals(memberId, described.members().get(0).memberId());
            assertEquals(5, fetchOffset(client, group, true), "no refused commit changed the offset");
            assertEquals(Errors.NONE.code(), heartbeat(client, group, memberId, 1, true),
                    "the member carries on in generation 1");
        }
    }

    @Test
    void aTransactionalIdsCoordinatorIsALiveBrokerAndAnEmptyIdIsRefused() throws Exception {
        try (WireClient client = new WireClient(node.port())) {
            FindCoordinatorRequest request = new FindCoordinatorRequest()
                    .setKeyType((byte) 1)
                    .setCoordinatorKeys(new ArrayList<>(List.of("txn-id", "")));
            FindCoordinatorResponse response = client.send(request, highest(ApiKey.FIND_COORDINATOR));
            FindCoordinatorResponse.Coordinator coordinator = response.coordinators().get(0);
            assertEquals(Errors.NONE.code(), coordinator.errorCode());
            assertEquals(node.port(), coordinator.port());
            assertEquals(Errors.INVALID_REQUEST.code(), response.coordinators().get(1).errorCode());
        }
    }
}
