package io.kraft.server.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.server.TestNode;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.storage.errors.Errors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
        byte[] name = topic.getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(2 + 4 + 2 + name.length + 4);
        out.putShort((short) 0).putInt(1).putShort((short) name.length).put(name).putInt(-1);
        return out.flip();
    }

    /** FindCoordinator until the offsets topic exists and the group's coordinator answers. */
    private static void findCoordinator(WireClient client, String group, boolean newest) throws Exception {
        ApiKey api = ApiKey.FIND_COORDINATOR;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            Struct request = WireClient.request(api);
            if (newest) {
                request.addToList(request.field("coordinator_keys"), group);
                request.addToList(request.field("coordinator_keys"), group + "-other");
            } else {
                request.set("key", group);
            }
            Struct response = client.send(api, version(api, newest), request);
            short error;
            int nodeId;
            int port;
            if (newest) {
                List<Struct> coordinators = response.getStructs("coordinators");
                assertEquals(2, coordinators.size(), "one answer per batched key");
                error = coordinators.get(0).getShort("error_code");
                nodeId = coordinators.get(0).getInt("node_id");
                port = coordinators.get(0).getInt("port");
            } else {
                error = response.getShort("error_code");
                nodeId = response.getInt("node_id");
                port = response.getInt("port");
            }
            if (error == Errors.NONE.code()) {
                assertEquals(1, nodeId);
                assertEquals(node.port(), port);
                return;
            }
            assertEquals(Errors.COORDINATOR_NOT_AVAILABLE.code(), error, "retriable while the topic is created");
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no coordinator for " + group);
            }
            Thread.sleep(100);
        }
    }

    /** JoinGroup, again while the coordinator still loads the group's partition (clients retry that too). */
    private static Struct join(WireClient client, String group, String memberId, String protocolType,
                               boolean newest) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            Struct response = joinOnce(client, group, memberId, protocolType, newest);
            if (response.getShort("error_code") != Errors.COORDINATOR_LOAD_IN_PROGRESS.code()
                    || System.nanoTime() > deadline) {
                return response;
            }
            Thread.sleep(50);
        }
    }

    private static Struct joinOnce(WireClient client, String group, String memberId, String protocolType,
                                   boolean newest) throws IOException {
        ApiKey api = ApiKey.JOIN_GROUP;
        Struct request = WireClient.request(api);
        request.set("group_id", group);
        request.setInt(request.field("session_timeout_ms"), 10_000);
        request.setInt(request.field("rebalance_timeout_ms"), 10_000);
        request.set("member_id", memberId);
        request.set("protocol_type", protocolType);
        Struct protocol = request.addStruct("protocols");
        protocol.set("name", "range");
        protocol.set("metadata", subscription("wire"));
        return client.send(api, version(api, newest), request);
    }

    /** A one-member group, joined and synced at the given end of every version range; returns member id. */
    private static String stableGroup(WireClient client, String group, boolean newest) throws Exception {
        findCoordinator(client, group, newest);
        Struct joined = join(client, group, "", "consumer", newest);
        String memberId = joined.getString("member_id");
        if (newest) {
            assertEquals(Errors.MEMBER_ID_REQUIRED.code(), joined.getShort("error_code"), "KIP-394 from v4");
            joined = join(client, group, memberId, "consumer", true);
        }
        assertEquals(Errors.NONE.code(), joined.getShort("error_code"));
        assertEquals(1, joined.getInt("generation_id"));
        assertEquals(memberId, joined.getString("leader"));
        assertEquals("range", joined.getString("protocol_name"));
        assertEquals(1, joined.getStructs("members").size());

        ApiKey api = ApiKey.SYNC_GROUP;
        Struct sync = WireClient.request(api);
        sync.set("group_id", group);
        sync.setInt(sync.field("generation_id"), 1);
        sync.set("member_id", memberId);
        sync.set("protocol_type", "consumer");
        sync.set("protocol_name", "range");
        Struct assignment = sync.addStruct("assignments");
        assignment.set("member_id", memberId);
        assignment.set("assignment", ByteBuffer.wrap(new byte[] {4, 2}));
        Struct synced = client.send(api, version(api, newest), sync);
        assertEquals(Errors.NONE.code(), synced.getShort("error_code"));
        ByteBuffer assigned = synced.getBytes("assignment");
        assertEquals(ByteBuffer.wrap(new byte[] {4, 2}), assigned);
        return memberId;
    }

    private static short heartbeat(WireClient client, String group, String memberId, int generation,
                                   boolean newest) throws IOException {
        ApiKey api = ApiKey.HEARTBEAT;
        Struct request = WireClient.request(api);
        request.set("group_id", group);
        request.setInt(request.field("generation_id"), generation);
        request.set("member_id", memberId);
        return client.send(api, version(api, newest), request).getShort("error_code");
    }

    private static short commit(WireClient client, String group, String memberId, int generation, long offset,
                                String metadata, boolean newest) throws IOException {
        ApiKey api = ApiKey.OFFSET_COMMIT;
        Struct request = WireClient.request(api);
        request.set("group_id", group);
        request.setInt(request.field("generation_id_or_member_epoch"), generation);
        request.set("member_id", memberId);
        Struct topic = request.addStruct("topics");
        topic.set("name", "wire");
        Struct partition = topic.addStruct("partitions");
        partition.setInt(partition.field("partition_index"), 1);
        partition.setLong(partition.field("committed_offset"), offset);
        partition.set("committed_metadata", metadata);
        Struct response = client.send(api, version(api, newest), request);
        return response.getStructs("topics").get(0).getStructs("partitions").get(0).getShort("error_code");
    }

    private static long fetchOffset(WireClient client, String group, boolean newest) throws IOException {
        ApiKey api = ApiKey.OFFSET_FETCH;
        Struct request = WireClient.request(api);
        Struct topic;
        if (newest) {
            Struct groupRequest = request.addStruct("groups");
            groupRequest.set("group_id", group);
            topic = groupRequest.addStruct("topics");
        } else {
            request.set("group_id", group);
            topic = request.addStruct("topics");
        }
        topic.set("name", "wire");
        topic.addToList(topic.field("partition_indexes"), 1);
        Struct response = client.send(api, version(api, newest), request);
        List<Struct> topics = newest ? response.getStructs("groups").get(0).getStructs("topics")
                : response.getStructs("topics");
        Struct partition = topics.get(0).getStructs("partitions").get(0);
        assertEquals(Errors.NONE.code(), partition.getShort("error_code"));
        return partition.getLong("committed_offset");
    }

    private static Struct describe(WireClient client, String group, boolean newest) throws IOException {
        ApiKey api = ApiKey.DESCRIBE_GROUPS;
        Struct request = WireClient.request(api);
        request.addToList(request.field("groups"), group);
        return client.send(api, version(api, newest), request).getStructs("groups").get(0);
    }

    private static List<Struct> listGroups(WireClient client, boolean newest, String stateFilter)
            throws IOException {
        ApiKey api = ApiKey.LIST_GROUPS;
        Struct request = WireClient.request(api);
        if (stateFilter != null) {
            request.addToList(request.field("states_filter"), stateFilter);
        }
        Struct response = client.send(api, version(api, newest), request);
        assertEquals(Errors.NONE.code(), response.getShort("error_code"));
        return response.getStructs("groups");
    }

    private void lifecycleAtOneEndOfEveryRange(boolean newest) throws Exception {
        String group = newest ? "wire-newest" : "wire-oldest";
        try (WireClient client = new WireClient(node.port())) {
            String memberId = stableGroup(client, group, newest);
            assertEquals(Errors.NONE.code(), heartbeat(client, group, memberId, 1, newest));
            assertEquals(Errors.NONE.code(), commit(client, group, memberId, 1, 11, "m", newest));
            assertEquals(11, fetchOffset(client, group, newest));

            Struct described = describe(client, group, newest);
            assertEquals("Stable", described.getString("group_state"));
            assertEquals("range", described.getString("protocol_data"));
            assertEquals("wire-test", described.getStructs("members").get(0).getString("client_id"));
            assertEquals("/127.0.0.1", described.getStructs("members").get(0).getString("client_host"));
            assertTrue(listGroups(client, newest, null).stream().anyMatch(g -> g.getString("group_id").equals(group)));
            if (newest) {
                assertTrue(listGroups(client, true, "stable").stream()
                        .anyMatch(g -> g.getString("group_id").equals(group)), "state filters ignore case");
                assertFalse(listGroups(client, true, "Empty").stream()
                        .anyMatch(g -> g.getString("group_id").equals(group)));
            }

            ApiKey offsetDelete = ApiKey.OFFSET_DELETE;
            Struct deleteOffsets = WireClient.request(offsetDelete);
            deleteOffsets.set("group_id", group);
            Struct topic = deleteOffsets.addStruct("topics");
            topic.set("name", "wire");
            topic.addStruct("partitions").setInt(topic.getStructs("partitions").get(0).field("partition_index"), 1);
            Struct deleted = client.send(offsetDelete, version(offsetDelete, newest), deleteOffsets);
            assertEquals(Errors.GROUP_SUBSCRIBED_TO_TOPIC.code(),
                    deleted.getStructs("topics").get(0).getStructs("partitions").get(0).getShort("error_code"));

            ApiKey deleteGroups = ApiKey.DELETE_GROUPS;
            Struct deleteRequest = WireClient.request(deleteGroups);
            deleteRequest.addToList(deleteRequest.field("groups_names"), group);
            assertEquals(Errors.NON_EMPTY_GROUP.code(), client.send(deleteGroups, version(deleteGroups, newest),
                    deleteRequest).getStructs("results").get(0).getShort("error_code"));

            ApiKey leave = ApiKey.LEAVE_GROUP;
            Struct leaveRequest = WireClient.request(leave);
            leaveRequest.set("group_id", group);
            if (newest) {
                leaveRequest.addStruct("members").set("member_id", memberId);
                Struct ghost = leaveRequest.addStruct("members");
                ghost.set("member_id", "ghost");
                Struct left = client.send(leave, version(leave, true), leaveRequest);
                assertEquals(Errors.NONE.code(), left.getShort("error_code"));
                assertEquals(Errors.NONE.code(), left.getStructs("members").get(0).getShort("error_code"));
                assertEquals(Errors.UNKNOWN_MEMBER_ID.code(),
                        left.getStructs("members").get(1).getShort("error_code"));
            } else {
                leaveRequest.set("member_id", memberId);
                assertEquals(Errors.NONE.code(), client.send(leave, version(leave, false), leaveRequest)
                        .getShort("error_code"));
            }
            assertEquals("Empty", describe(client, group, newest).getString("group_state"));
            assertEquals(Errors.NONE.code(), client.send(deleteGroups, version(deleteGroups, newest),
                    deleteRequest).getStructs("results").get(0).getShort("error_code"));
            Struct gone = describe(client, group, newest);
            assertEquals("Dead", gone.getString("group_state"));
            assertEquals(newest ? Errors.GROUP_ID_NOT_FOUND.code() : Errors.NONE.code(),
                    gone.getShort("error_code"), "v6 reports an unknown group as GROUP_ID_NOT_FOUND");
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
            Struct otherType = join(client, group, "", "connect", true);
            assertEquals(Errors.INCONSISTENT_GROUP_PROTOCOL.code(), otherType.getShort("error_code"));
            assertEquals(Errors.ILLEGAL_GENERATION.code(), heartbeat(client, group, memberId, 7, true));
            assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), heartbeat(client, group, "ghost", 1, true));

            Struct described = describe(client, group, true);
            assertEquals("Stable", described.getString("group_state"));
            assertEquals(1, described.getStructs("members").size());
            assertEquals(memberId, described.getStructs("members").get(0).getString("member_id"));
            assertEquals(5, fetchOffset(client, group, true), "no refused commit changed the offset");
            assertEquals(Errors.NONE.code(), heartbeat(client, group, memberId, 1, true),
                    "the member carries on in generation 1");
        }
    }

    @Test
    void transactionCoordinatorLookupsAreRefusedWithAReason() throws Exception {
        try (WireClient client = new WireClient(node.port())) {
            ApiKey api = ApiKey.FIND_COORDINATOR;
            Struct request = WireClient.request(api);
            request.setByte(request.field("key_type"), (byte) 1);
            request.addToList(request.field("coordinator_keys"), "txn-id");
            Struct response = client.send(api, highest(api), request);
            Struct coordinator = response.getStructs("coordinators").get(0);
            assertEquals(Errors.INVALID_REQUEST.code(), coordinator.getShort("error_code"));
            assertEquals("transactions are not supported by this broker yet", coordinator.getString("error_message"));
        }
    }
}
