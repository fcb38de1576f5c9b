package io.kraft.broker.group;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.GroupApi.CommitRequest;
import io.kraft.broker.group.GroupApi.DescribedGroup;
import io.kraft.broker.group.GroupApi.HeartbeatRequest;
import io.kraft.broker.group.GroupApi.JoinRequest;
import io.kraft.broker.group.GroupApi.JoinResult;
import io.kraft.broker.group.GroupApi.LeaveResult;
import io.kraft.broker.group.GroupApi.LeavingMember;
import io.kraft.broker.group.GroupApi.OffsetDeleteResult;
import io.kraft.broker.group.GroupApi.OffsetFetchResult;
import io.kraft.broker.group.GroupApi.PartitionCommit;
import io.kraft.broker.group.GroupApi.Protocol;
import io.kraft.broker.group.GroupApi.SyncRequest;
import io.kraft.broker.group.GroupApi.SyncResult;
import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.storage.errors.Errors;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The coordinator state machine driven with a manual clock: rebalances, expiry, static members, commits, reloads. */
class GroupCoordinatorTest {
    private static final String GROUP = "orders";
    private static final int SESSION_MS = 10_000;
    private static final int REBALANCE_MS = 30_000;
    private static final long RETENTION_MS = 60_000L;

    private final ManualTimer timer = new ManualTimer(1_000_000L);
    private final InMemoryCoordinatorLog log = new InMemoryCoordinatorLog();
    private GroupCoordinator coordinator;

    @BeforeEach
    void start() {
        startWith(0);
    }

    private void startWith(int initialDelayMs) {
        GroupConfig config = new GroupConfig(6_000, 1_800_000, initialDelayMs, 1_000, 4_096, RETENTION_MS,
                600_000, 1, (short) 1, 104_857_600, 5_000);
        coordinator = new GroupCoordinator(config, timer, log, partition -> !partition.topic().equals("missing"));
        coordinator.onElected(0, 0);
        timer.runPending();
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private static byte[] subscription(String... topics) {
        ByteBuffer out = ByteBuffer.allocate(256);
        out.putShort((short) 0).putInt(topics.length);
        for (String topic : topics) {
            byte[] name = topic.getBytes(StandardCharsets.UTF_8);
            out.putShort((short) name.length).put(name);
        }
        out.putInt(-1);
        byte[] bytes = new byte[out.position()];
        out.flip().get(bytes);
        return bytes;
    }

    private static List<Protocol> protocols(String... names) {
        List<Protocol> list = new ArrayList<>();
        for (String name : names) {
            list.add(new Protocol(name, subscription("events")));
        }
        return list;
    }

    private AtomicReference<JoinResult> join(String memberId, String instanceId, List<Protocol> protocols,
                                             boolean v9) {
        AtomicReference<JoinResult> result = new AtomicReference<>();
        coordinator.joinGroup(new JoinRequest(GROUP, memberId, instanceId, "client", "/127.0.0.1", SESSION_MS,
                REBALANCE_MS, "consumer", protocols, true, v9), result::set);
        timer.runPending();
        return result;
    }

    private AtomicReference<JoinResult> join(String memberId) {
        return join(memberId, null, protocols("range"), true);
    }

    /** KIP-394: the first join hands out an id; the second join with it is held. */
    private AtomicReference<JoinResult> joinNewDynamicMember() {
        JoinResult first = join("").get();
        assertEquals(Errors.MEMBER_ID_REQUIRED, first.error());
        assertFalse(first.memberId().isEmpty());
        return join(first.memberId());
    }

    private AtomicReference<SyncResult> sync(String memberId, int generation, Map<String, byte[]> assignments) {
        AtomicReference<SyncResult> result = new AtomicReference<>();
        coordinator.syncGroup(new SyncRequest(GROUP, generation, memberId, null, "consumer", null, assignments),
                result::set);
        timer.runPending();
        return result;
    }

    private Errors heartbeat(String memberId, int generation) {
        return coordinator.heartbeat(new HeartbeatRequest(GROUP, generation, memberId, null));
    }

    private Map<OffsetKey, Errors> commit(int generation, String memberId, String metadata, long offset,
                                              OffsetKey... partitions) {
        List<PartitionCommit> commits = new ArrayList<>();
        for (OffsetKey partition : partitions) {
            commits.add(new PartitionCommit(partition, offset, 3, metadata));
        }
        AtomicReference<Map<OffsetKey, Errors>> result = new AtomicReference<>();
        coordinator.commitOffsets(new CommitRequest(GROUP, generation, memberId, null, -1, commits), result::set);
        timer.runPending();
        return result.get();
    }

    private GroupState state() {
        return coordinator.describeGroup(GROUP).state();
    }

    /** One dynamic member joins and syncs; returns its id, the group at generation 1 and stable. */
    private String stableSingleMember(byte[] assignment) {
        JoinResult joined = joinNewDynamicMember().get();
        assertEquals(Errors.NONE, joined.error());
        assertEquals(joined.memberId(), joined.leaderId());
        assertEquals(Errors.NONE,
                sync(joined.memberId(), joined.generationId(), Map.of(joined.memberId(), assignment)).get().error());
        return joined.memberId();
    }

    // ---- rebalancing ---------------------------------------------------------------------------------------

    @Test
    void firstJoinAsksForAMemberIdThenTheGroupStabilisesWithTheLeadersAssignment() {
        AtomicReference<JoinResult> joined = joinNewDynamicMember();
        JoinResult result = joined.get();
        assertNotNull(result, "the join completes once every known member has joined");
        assertEquals(Errors.NONE, result.error());
        assertEquals(1, result.generationId());
        assertEquals("range", result.protocolName());
        assertEquals(1, result.members().size(), "the leader sees every member's subscription");
        assertEquals(GroupState.COMPLETING_REBALANCE, state());

        byte[] assignment = {1, 2, 3};
        SyncResult synced = sync(result.memberId(), 1, Map.of(result.memberId(), assignment)).get();
        assertEquals(Errors.NONE, synced.error());
        assertArrayEquals(assignment, synced.assignment());
        assertEquals(GroupState.STABLE, state());
        assertEquals(Errors.NONE, heartbeat(result.memberId(), 1));
    }

    @Test
    void aSecondMemberMakesEveryoneRejoinAndFollowersWaitForTheLeadersAssignment() {
        String leader = stableSingleMember(new byte[] {1});
        AtomicReference<JoinResult> follower = joinNewDynamicMember();
        assertNull(follower.get(), "held until the leader rejoins");
        assertEquals(GroupState.PREPARING_REBALANCE, state());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(leader, 1));

        JoinResult leaderJoin = join(leader).get();
        JoinResult followerJoin = follower.get();
        assertEquals(2, leaderJoin.generationId());
        assertEquals(leader, leaderJoin.leaderId());
        assertEquals(2, leaderJoin.members().size());
        assertTrue(followerJoin.members().isEmpty(), "only the leader gets the members");

        AtomicReference<SyncResult> followerSync = sync(followerJoin.memberId(), 2, Map.of());
        assertNull(followerSync.get(), "a follower waits for the leader's SyncGroup");
        sync(leader, 2, Map.of(leader, new byte[] {1}, followerJoin.memberId(), new byte[] {2}));
        assertArrayEquals(new byte[] {2}, followerSync.get().assignment());
        assertEquals(GroupState.STABLE, state());
    }

    @Test
    void theInitialRebalanceWaitsForMoreMembersAndEachNewcomerExtendsTheWait() {
        startWith(3_000);
        AtomicReference<JoinResult> first = joinNewDynamicMember();
        timer.advance(2_000);
        AtomicReference<JoinResult> second = joinNewDynamicMember();
        timer.advance(1_500);
        assertNull(first.get(), "a newcomer within the delay extends it by another delay");
        timer.advance(2_000);
        assertNull(first.get());
        timer.advance(500);
        assertEquals(1, first.get().generationId());
        assertEquals(1, second.get().generationId());
        assertEquals(2, (first.get().members().isEmpty() ? second : first).get().members().size());
    }

    @Test
    void protocolIsTheOneAllMembersSupportThatMostPrefer() {
        AtomicReference<JoinResult> a = join("", null, protocols("roundrobin", "range"), true);
        String idA = a.get().memberId();
        a = join(idA, null, protocols("roundrobin", "range"), true);
        JoinResult b = join("", null, protocols("range", "roundrobin"), true).get();
        AtomicReference<JoinResult> bJoin = join(b.memberId(), null, protocols("range", "roundrobin"), true);
        JoinResult c = join("", null, protocols("range", "sticky"), true).get();
        AtomicReference<JoinResult> cJoin = join(c.memberId(), null, protocols("range", "sticky"), true);
        JoinResult aRejoin = join(idA, null, protocols("roundrobin", "range"), true).get();
        assertEquals(Errors.NONE, aRejoin.error());
        assertEquals("range", aRejoin.protocolName(), "sticky is not supported by all; range has two votes");
        assertEquals("range", bJoin.get().protocolName());
        assertEquals("range", cJoin.get().protocolName());
        assertEquals(Errors.NONE, a.get().error());
    }

    @Test
    void aJoinWithAnUnsupportedProtocolOrTypeIsRefusedAndLeavesTheGroupAlone() {
        String leader = stableSingleMember(new byte[] {1});
        JoinResult other = join("", null, protocols("sticky"), true).get();
        assertEquals(Errors.INCONSISTENT_GROUP_PROTOCOL, other.error());
        AtomicReference<JoinResult> wrongType = new AtomicReference<>();
        coordinator.joinGroup(new JoinRequest(GROUP, "", null, "c", "/h", SESSION_MS, REBALANCE_MS, "connect",
                protocols("range"), true, false), wrongType::set);
        assertEquals(Errors.INCONSISTENT_GROUP_PROTOCOL, wrongType.get().error());
        assertEquals(GroupState.STABLE, state());
        assertEquals(Errors.NONE, heartbeat(leader, 1));

        AtomicReference<JoinResult> fresh = new AtomicReference<>();
        coordinator.joinGroup(new JoinRequest("other", "", null, "c", "/h", SESSION_MS, REBALANCE_MS, "",
                protocols("range"), true, false), fresh::set);
        assertEquals(Errors.INCONSISTENT_GROUP_PROTOCOL, fresh.get().error());
        assertTrue(coordinator.listGroups(Set.of()).groups().stream().noneMatch(g -> g.groupId().equals("other")),
                "a refused first join creates no group");
    }

    @Test
    void sessionTimeoutsOutsideTheBrokerBoundsAreRefused() {
        AtomicReference<JoinResult> result = new AtomicReference<>();
        coordinator.joinGroup(new JoinRequest(GROUP, "", null, "c", "/h", 5_999, REBALANCE_MS, "consumer",
                protocols("range"), true, false), result::set);
        assertEquals(Errors.INVALID_SESSION_TIMEOUT, result.get().error());
        coordinator.joinGroup(new JoinRequest(GROUP, "", null, "c", "/h", 1_800_001, REBALANCE_MS, "consumer",
                protocols("range"), true, false), result::set);
        assertEquals(Errors.INVALID_SESSION_TIMEOUT, result.get().error());
    }

    @Test
    void aMemberThatStopsHeartbeatingExpiresAndTheOthersRebalance() {
        String leader = stableSingleMember(new byte[] {1});
        AtomicReference<JoinResult> follower = joinNewDynamicMember();
        JoinResult leaderJoin = join(leader).get();
        String followerId = follower.get().memberId();
        sync(followerId, 2, Map.of());
        sync(leader, 2, Map.of(leader, new byte[] {1}, followerId, new byte[] {2}));
        assertEquals(GroupState.STABLE, state());

        for (int i = 0; i < 3; i++) {
            timer.advance(3_000);
            assertEquals(Errors.NONE, heartbeat(leader, leaderJoin.generationId()));
        }
        timer.advance(3_000);
        assertEquals(GroupState.PREPARING_REBALANCE, state(), "the silent follower expired after 10 s");
        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(leader, leaderJoin.generationId()));
        assertEquals(Errors.UNKNOWN_MEMBER_ID, heartbeat(followerId, 2));
        JoinResult rejoin = join(leader).get();
        assertEquals(3, rejoin.generationId());
        assertEquals(1, rejoin.members().size());
    }

    @Test
    void membersThatDoNotRejoinWithinTheRebalanceTimeoutAreDropped() {
        String leader = stableSingleMember(new byte[] {1});
        AtomicReference<JoinResult> follower = joinNewDynamicMember();
        join(leader);
        String followerId = follower.get().memberId();
        sync(followerId, 2, Map.of());
        sync(leader, 2, Map.of(leader, new byte[] {1}, followerId, new byte[] {2}));

        AtomicReference<JoinResult> leaderRejoin = join(leader); // the leader forces a rebalance
        assertNull(leaderRejoin.get());
        for (int elapsedMs = 0; elapsedMs < REBALANCE_MS; elapsedMs += 3_000) {
            timer.advance(3_000);
            heartbeat(followerId, 2); // alive, but never rejoins
        }
        assertNotNull(leaderRejoin.get(), "the rebalance completes at its timeout");
        assertEquals(1, leaderRejoin.get().members().size());
        assertEquals(Errors.UNKNOWN_MEMBER_ID, heartbeat(followerId, 2));
    }

    @Test
    void aMemberThatNeverSyncsIsDroppedAfterTheRebalanceTimeout() {
        String leader = stableSingleMember(new byte[] {1});
        AtomicReference<JoinResult> follower = joinNewDynamicMember();
        join(leader);
        String followerId = follower.get().memberId();
        AtomicReference<SyncResult> followerSync = sync(followerId, 2, Map.of());
        for (int elapsedMs = 0; elapsedMs <= REBALANCE_MS; elapsedMs += 3_000) {
            timer.advance(3_000);
            heartbeat(followerId, 2);
        }
        assertEquals(Errors.REBALANCE_IN_PROGRESS, followerSync.get().error());
        assertEquals(GroupState.PREPARING_REBALANCE, state());
        assertEquals(Errors.UNKNOWN_MEMBER_ID, heartbeat(leader, 2), "the leader never synced: it is gone");
    }

    @Test
    void leavingMembersRebalanceTheGroupAndTheLastOneLeavesItEmptyAtTheNextGeneration() {
        String leader = stableSingleMember(new byte[] {1});
        LeaveResult left = coordinator.leaveGroup(GROUP, List.of(new LeavingMember(leader, null)));
        timer.runPending();
        assertEquals(List.of(Errors.NONE), left.memberErrors());
        assertEquals(GroupState.EMPTY, state());
        LeaveResult unknown = coordinator.leaveGroup(GROUP, List.of(new LeavingMember("nobody", null)));
        assertEquals(List.of(Errors.UNKNOWN_MEMBER_ID), unknown.memberErrors());

        coordinator.onResigned(0);
        coordinator.onElected(0, 1);
        timer.runPending();
        assertEquals(GroupState.EMPTY, state());
        AtomicReference<JoinResult> again = joinNewDynamicMember();
        assertEquals(3, again.get().generationId(), "the empty group's generation 2 was stored");
    }

    // ---- static membership ---------------------------------------------------------------------------------

    @Test
    void aStaticMemberRestartingWithTheSameProtocolGetsItsAssignmentWithoutARebalance() {
        JoinResult first = join("", "instance-a", protocols("range"), true).get();
        assertEquals(Errors.NONE, first.error(), "static members skip MEMBER_ID_REQUIRED");
        JoinResult second = join("", "instance-b", protocols("range"), true).get();
        assertNull(second, "held until the first rejoins");
        JoinResult firstRejoin = join(first.memberId(), "instance-a", protocols("range"), true).get();
        assertEquals(2, firstRejoin.generationId());
        String leader = firstRejoin.leaderId();
        String follower = leader.equals(first.memberId())
                ? firstRejoin.members().stream().filter(m -> !m.memberId().equals(leader)).findFirst().get().memberId()
                : first.memberId();
        sync(follower, 2, Map.of());
        sync(leader, 2, Map.of(leader, new byte[] {1}, follower, new byte[] {2}));
        assertEquals(GroupState.STABLE, state());
        String followerInstance = follower.equals(first.memberId()) ? "instance-a" : "instance-b";

        int appendsBefore = log.appendCount();
        List<Protocol> restartedSubscription = List.of(new Protocol("range", subscription("events", "more")));
        JoinResult restarted = join("", followerInstance, restartedSubscription, true).get();
        assertEquals(Errors.NONE, restarted.error());
        assertEquals(2, restarted.generationId(), "no new generation");
        assertNotEquals(follower, restarted.memberId());
        assertEquals(GroupState.STABLE, state());
        assertEquals(appendsBefore + 1, log.appendCount(), "the new member id is stored");
        SyncResult synced = sync(restarted.memberId(), 2, Map.of()).get();
        assertArrayEquals(new byte[] {2}, synced.assignment());
        assertEquals(Errors.NONE, heartbeat(leader, 2), "the other member sees no rebalance");

        assertEquals(Errors.FENCED_INSTANCE_ID,
                coordinator.heartbeat(new HeartbeatRequest(GROUP, 2, follower, followerInstance)));
        AtomicReference<Map<OffsetKey, Errors>> fencedCommit = new AtomicReference<>();
        coordinator.commitOffsets(new CommitRequest(GROUP, 2, follower, followerInstance, -1,
                List.of(new PartitionCommit(new OffsetKey("events", 0), 1, -1, ""))), fencedCommit::set);
        assertEquals(Errors.FENCED_INSTANCE_ID, fencedCommit.get().get(new OffsetKey("events", 0)));
    }

    @Test
    void aRestartedStaticLeaderKeepsTheAssignmentFromV9AndForcesARebalanceBefore() {
        JoinResult first = join("", "leader", protocols("range"), true).get();
        sync(first.memberId(), 1, Map.of(first.memberId(), new byte[] {7}));
        JoinResult restarted = join("", "leader", protocols("range"), true).get();
        assertEquals(Errors.NONE, restarted.error());
        assertTrue(restarted.skipAssignment());
        assertEquals(restarted.memberId(), restarted.leaderId());
        assertEquals(1, restarted.generationId());
        assertArrayEquals(new byte[] {7}, sync(restarted.memberId(), 1, Map.of()).get().assignment());

        JoinResult oldClient = join("", "leader", protocols("range"), false).get();
        assertEquals(Errors.NONE, oldClient.error());
        assertEquals(2, oldClient.generationId(), "without KIP-814 the leader must assign again");
    }

    @Test
    void anExpiredStaticMemberIsRemovedLikeAnyOther() {
        JoinResult a = join("", "a", protocols("range"), true).get();
        sync(a.memberId(), 1, Map.of(a.memberId(), new byte[] {1}));
        timer.advance(SESSION_MS + 1);
        assertEquals(GroupState.EMPTY, state());
        LeaveResult left = coordinator.leaveGroup(GROUP, List.of(new LeavingMember("", "a")));
        assertEquals(List.of(Errors.UNKNOWN_MEMBER_ID), left.memberErrors());
    }

    // ---- offsets ---------------------------------------------------------------------------------------------

    @Test
    void commitsAreCheckedAgainstMemberGenerationAndRebalanceState() {
        OffsetKey p0 = new OffsetKey("events", 0);
        String leader = stableSingleMember(new byte[] {1});
        assertEquals(Errors.UNKNOWN_MEMBER_ID, commit(1, "stranger", "", 5, p0).get(p0));
        assertEquals(Errors.ILLEGAL_GENERATION, commit(0, leader, "", 5, p0).get(p0));
        assertEquals(Errors.NONE, commit(1, leader, "", 5, p0).get(p0));

        AtomicReference<JoinResult> follower = joinNewDynamicMember();
        assertEquals(Errors.NONE, commit(1, leader, "", 6, p0).get(p0),
                "a member of the current generation may commit while the group prepares a rebalance");
        join(leader);
        assertNotNull(follower.get());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, commit(2, leader, "", 7, p0).get(p0));

        OffsetFetchResult fetched = coordinator.fetchOffsets(GROUP, List.of(p0, new OffsetKey("events", 1)), false);
        assertEquals(6, fetched.offsets().get(0).offset());
        assertEquals(3, fetched.offsets().get(0).leaderEpoch());
        assertEquals(-1, fetched.offsets().get(1).offset());
        assertEquals(GroupState.COMPLETING_REBALANCE, state(), "refused commits leave the group alone");
    }

    @Test
    void countsGroupsByStateAndTheirOffsetsForTheMetrics() throws Exception {
        assertEquals(0, coordinator.counts().live());
        OffsetKey p0 = new OffsetKey("events", 0);
        OffsetKey p1 = new OffsetKey("events", 1);
        String leader = stableSingleMember(new byte[] {1});
        commit(1, leader, "", 5, p0, p1);
        GroupCounts stable = coordinator.counts();
        assertEquals(1, stable.inState(GroupState.STABLE));
        assertEquals(1, stable.live());
        assertEquals(2, stable.offsets());

        joinNewDynamicMember();
        assertEquals(1, coordinator.counts().inState(GroupState.PREPARING_REBALANCE));
        assertEquals(0, coordinator.counts().inState(GroupState.STABLE));

        ByteArrayOutputStream scrape = new ByteArrayOutputStream();
        try (KafkaMetrics metrics = KafkaMetrics.withoutJmx()) {
            // This broker knows the high watermark of events-0 only (it hosts no replica of events-1).
            GroupCoordinatorMetrics.gauges(metrics, key -> key.equals(p0) ? 12 : -1).update(stable);
            metrics.writePrometheus(scrape);
        }
        String text = scrape.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("kafka_server_consumergrouplag_lag_by_group_by_topic_by_partition{group=\"orders\","
                + "partition=\"0\",topic=\"events\"} 7.0"), text);
        assertFalse(text.contains("partition=\"1\""), "no lag where the high watermark is unknown");
        assertTrue(text.contains("kafka_server_consumergrouplag_lagsum_by_group{group=\"orders\"} 7"), text);
        assertTrue(text.contains("kafka_server_group_coordinator_metrics_group_count_by_protocol{protocol=\"classic\"} 1"),
                text);
        assertTrue(text.contains("kafka_server_group_coordinator_metrics_classic_group_count_by_state{state=\"stable\"} 1"),
                text);
        assertTrue(text.contains("kafka_coordinator_group_groupmetadatamanager_numoffsets 2"), text);
        assertTrue(text.contains("kafka_coordinator_group_groupmetadatamanager_numgroupsempty 0"), text);
    }

    @Test
    void lagSeriesComeAndGoWithTheCommittedOffsets() throws Exception {
        OffsetKey p0 = new OffsetKey("events", 0);
        String leader = stableSingleMember(new byte[] {1});
        commit(1, leader, "", 5, p0);
        try (KafkaMetrics metrics = KafkaMetrics.withoutJmx()) {
            AtomicReference<Long> highWatermark = new AtomicReference<>(5L);
            GroupCoordinatorMetrics gauges = GroupCoordinatorMetrics.gauges(metrics, key -> highWatermark.get());
            gauges.update(coordinator.counts());
            assertTrue(scrape(metrics).contains("partition=\"0\",topic=\"events\"} 0.0"), "caught up: lag 0");
            highWatermark.set(105L);
            gauges.update(coordinator.counts());
            assertTrue(scrape(metrics).contains("partition=\"0\",topic=\"events\"} 100.0"));
            gauges.update(GroupCounts.NONE);
            assertFalse(scrape(metrics).contains("consumergrouplag"), "the group's offsets are gone: so are its series");
        }
    }

    private static String scrape(KafkaMetrics metrics) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metrics.writePrometheus(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void oversizeMetadataAndUnknownPartitionsAreRefusedPerPartition() {
        OffsetKey p0 = new OffsetKey("events", 0);
        OffsetKey missing = new OffsetKey("missing", 0);
        String leader = stableSingleMember(new byte[] {1});
        Map<OffsetKey, Errors> tooLarge = commit(1, leader, "x".repeat(4_097), 5, p0);
        assertEquals(Errors.OFFSET_METADATA_TOO_LARGE, tooLarge.get(p0));
        Map<OffsetKey, Errors> mixed = commit(1, leader, "x".repeat(4_096), 5, p0, missing);
        assertEquals(Errors.NONE, mixed.get(p0));
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, mixed.get(missing));
        assertEquals("x".repeat(4_096), coordinator.fetchOffsets(GROUP, null, false).offsets().get(0).metadata());
    }

    @Test
    void simpleCommitsCreateAMemberlessGroupAndARefusedWriteCommitsNothing() {
        OffsetKey p0 = new OffsetKey("events", 0);
        assertEquals(Errors.ILLEGAL_GENERATION, commit(4, "m", "", 5, p0).get(p0),
                "a generation for a group that does not exist");
        assertEquals(Errors.NONE, commit(-1, "", "meta", 5, p0).get(p0));
        assertEquals(GroupState.EMPTY, state());
        log.failAppends(Errors.NOT_COORDINATOR);
        assertEquals(Errors.NOT_COORDINATOR, commit(-1, "", "meta", 9, p0).get(p0));
        log.failAppends(null);
        assertEquals(5, coordinator.fetchOffsets(GROUP, List.of(p0), false).offsets().get(0).offset());
    }

    @Test
    void aCommitIsAnsweredAndVisibleOnlyOnceItsRecordIsCommitted() {
        OffsetKey p0 = new OffsetKey("events", 0);
        log.holdAppends(true);
        AtomicReference<Map<OffsetKey, Errors>> result = new AtomicReference<>();
        coordinator.commitOffsets(new CommitRequest(GROUP, -1, "", null, -1,
                List.of(new PartitionCommit(p0, 42, -1, ""))), result::set);
        timer.runPending();
        assertNull(result.get());
        assertEquals(-1, coordinator.fetchOffsets(GROUP, List.of(p0), false).offsets().get(0).offset());
        assertEquals(Errors.UNSTABLE_OFFSET_COMMIT,
                coordinator.fetchOffsets(GROUP, List.of(p0), true).offsets().get(0).error());
        log.releaseHeld();
        timer.runPending();
        assertEquals(Errors.NONE, result.get().get(p0));
        assertEquals(42, coordinator.fetchOffsets(GROUP, List.of(p0), true).offsets().get(0).offset());
    }

    @Test
    void offsetsOfAnEmptyGroupExpireAfterTheRetentionAndTheGroupGoesWithThem() {
        OffsetKey p0 = new OffsetKey("events", 0);
        OffsetKey unsubscribed = new OffsetKey("old-topic", 0);
        String leader = stableSingleMember(new byte[] {1});
        commit(1, leader, "", 5, p0, unsubscribed);
        for (long elapsedMs = 0; elapsedMs < RETENTION_MS; elapsedMs += 3_000) {
            timer.advance(3_000);
            assertEquals(Errors.NONE, heartbeat(leader, 1));
        }
        coordinator.expireOffsets();
        timer.runPending();
        assertEquals(5, coordinator.fetchOffsets(GROUP, List.of(p0), false).offsets().get(0).offset(),
                "a stable group subscribed to the topic keeps its offsets");
        assertEquals(-1, coordinator.fetchOffsets(GROUP, List.of(unsubscribed), false).offsets().get(0).offset(),
                "offsets of topics the group no longer consumes expire from their commit");
        coordinator.leaveGroup(GROUP, List.of(new LeavingMember(leader, null)));
        timer.advance(RETENTION_MS - 1);
        coordinator.expireOffsets();
        assertEquals(GroupState.EMPTY, state());
        timer.advance(1);
        coordinator.expireOffsets();
        timer.runPending();
        assertEquals(Errors.GROUP_ID_NOT_FOUND, coordinator.describeGroup(GROUP).error());

        coordinator.onResigned(0);
        coordinator.onElected(0, 1);
        timer.runPending();
        assertEquals(Errors.GROUP_ID_NOT_FOUND, coordinator.describeGroup(GROUP).error(),
                "tombstones keep the group deleted after a reload");
    }

    @Test
    void offsetDeleteKeepsOffsetsOfSubscribedTopics() {
        OffsetKey events = new OffsetKey("events", 0);
        OffsetKey other = new OffsetKey("other", 0);
        String leader = stableSingleMember(new byte[] {1});
        commit(1, leader, "", 5, events, other);
        AtomicReference<OffsetDeleteResult> deleted = new AtomicReference<>();
        coordinator.deleteOffsets(GROUP, List.of(events, other), deleted::set);
        timer.runPending();
        assertEquals(Errors.GROUP_SUBSCRIBED_TO_TOPIC, deleted.get().partitionErrors().get(events));
        assertEquals(Errors.NONE, deleted.get().partitionErrors().get(other));
        assertEquals(1, coordinator.fetchOffsets(GROUP, null, false).offsets().size());
        coordinator.deleteOffsets("nobody", List.of(events), deleted::set);
        assertEquals(Errors.GROUP_ID_NOT_FOUND, deleted.get().error());
    }

    @Test
    void onlyEmptyGroupsCanBeDeleted() {
        OffsetKey p0 = new OffsetKey("events", 0);
        String leader = stableSingleMember(new byte[] {1});
        commit(1, leader, "", 5, p0);
        AtomicReference<Errors> result = new AtomicReference<>();
        coordinator.deleteGroup(GROUP, result::set);
        assertEquals(Errors.NON_EMPTY_GROUP, result.get());
        coordinator.leaveGroup(GROUP, List.of(new LeavingMember(leader, null)));
        coordinator.deleteGroup(GROUP, result::set);
        timer.runPending();
        assertEquals(Errors.NONE, result.get());
        coordinator.deleteGroup(GROUP, result::set);
        assertEquals(Errors.GROUP_ID_NOT_FOUND, result.get());
        assertEquals(-1, coordinator.fetchOffsets(GROUP, List.of(p0), false).offsets().get(0).offset());
    }

    // ---- loading ---------------------------------------------------------------------------------------------

    @Test
    void aReloadedPartitionRestoresGroupsMembersAssignmentsAndOffsets() {
        OffsetKey p0 = new OffsetKey("events", 0);
        String leader = stableSingleMember(new byte[] {9});
        commit(1, leader, "m", 17, p0);
        coordinator.onResigned(0);
        assertEquals(Errors.NOT_COORDINATOR, heartbeat(leader, 1));
        assertEquals(Errors.NOT_COORDINATOR, coordinator.fetchOffsets(GROUP, null, false).error());

        log.holdAppends(false);
        coordinator.onElected(0, 1);
        DescribedGroup loaded = coordinator.describeGroup(GROUP);
        assertEquals(Errors.COORDINATOR_LOAD_IN_PROGRESS, loaded.error());
        timer.runPending();
        loaded = coordinator.describeGroup(GROUP);
        assertEquals(GroupState.STABLE, loaded.state());
        assertArrayEquals(new byte[] {9}, loaded.members().get(0).assignment());
        assertEquals(17, coordinator.fetchOffsets(GROUP, List.of(p0), false).offsets().get(0).offset());
        assertEquals(Errors.NONE, heartbeat(leader, 1), "the member carries on with the new coordinator");

        timer.advance(SESSION_MS + 1);
        assertEquals(GroupState.EMPTY, state(), "a restored member that never comes back expires");
    }

    @Test
    void heldJoinsAreToldNotCoordinatorWhenThePartitionMovesAway() {
        startWith(3_000);
        AtomicReference<JoinResult> held = join("", "a", protocols("range"), true);
        assertNull(held.get());
        coordinator.onResigned(0);
        assertEquals(Errors.NOT_COORDINATOR, held.get().error());
    }

    @Test
    void groupsArePlacedLikeKafkaIncludingTheMinimumHash() {
        assertEquals(Integer.MIN_VALUE, "polygenelubricants".hashCode());
        assertEquals(0, GroupCoordinator.partitionFor("polygenelubricants", 50));
        assertEquals(Math.abs("my-group".hashCode()) % 50, GroupCoordinator.partitionFor("my-group", 50));
        Map<Integer, Integer> spread = new HashMap<>();
        for (int i = 0; i < 1_000; i++) {
            spread.merge(GroupCoordinator.partitionFor("group-" + i, 50), 1, Integer::sum);
        }
        assertEquals(50, spread.size());
    }

    @Test
    void listGroupsFiltersByStateAndReportsLoading() {
        stableSingleMember(new byte[] {1});
        assertEquals(1, coordinator.listGroups(Set.of()).groups().size());
        assertEquals(1, coordinator.listGroups(Set.of(GroupState.STABLE)).groups().size());
        assertEquals(0, coordinator.listGroups(Set.of(GroupState.EMPTY)).groups().size());
        log.holdAppends(false);
        coordinator.onElected(1, 0);
        assertEquals(Errors.COORDINATOR_LOAD_IN_PROGRESS, coordinator.listGroups(Set.of()).error());
    }
}
