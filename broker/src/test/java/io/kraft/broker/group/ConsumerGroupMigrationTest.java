package io.kraft.broker.group;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.GroupApi.CommitRequest;
import io.kraft.broker.group.GroupApi.HeartbeatRequest;
import io.kraft.broker.group.GroupApi.JoinRequest;
import io.kraft.broker.group.GroupApi.JoinResult;
import io.kraft.broker.group.GroupApi.LeavingMember;
import io.kraft.broker.group.GroupApi.PartitionCommit;
import io.kraft.broker.group.GroupApi.Protocol;
import io.kraft.broker.group.GroupApi.SyncRequest;
import io.kraft.broker.group.GroupApi.SyncResult;
import io.kraft.broker.group.consumer.Assignment;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.broker.group.consumer.ConsumerGroupView;
import io.kraft.broker.group.consumer.ConsumerHeartbeat;
import io.kraft.broker.group.consumer.ConsumerHeartbeat.Result;
import io.kraft.broker.protocol.message.ConsumerProtocolAssignment;
import io.kraft.broker.protocol.message.ConsumerProtocolSubscription;
import io.kraft.storage.errors.Errors;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * KIP-848's online migration through the coordinator, on a manual clock and an in-memory log: a stable classic group
 * upgraded by its first consumer-protocol member, its classic members served inside the consumer group (JoinGroup,
 * SyncGroup, Heartbeat, LeaveGroup, sessions) with partitions moving only once given up, the downgrade when the last
 * consumer-protocol member leaves, the migration policy's refusals, and a new coordinator replaying all of it.
 */
class ConsumerGroupMigrationTest {
    private static final String GROUP = "migrating";
    private static final UUID TOPIC = new UUID(9, 9);
    private static final int SESSION_MS = 10_000;
    private static final int REBALANCE_MS = 30_000;

    private final ConsumerGroupFixture fixture = new ConsumerGroupFixture(GROUP, TOPIC);
    private final ManualTimer timer = fixture.timer;
    private GroupCoordinator coordinator = newCoordinator("bidirectional");

    /** A coordinator of a fresh log. */
    private GroupCoordinator freshCoordinator(String policy) {
        fixture.freshLog();
        return newCoordinator(policy);
    }

    private GroupCoordinator newCoordinator(String policy) {
        return fixture.newCoordinator(
                ConsumerGroupConfig.fromProperties(Map.of(ConsumerGroupConfig.MIGRATION_POLICY, policy)));
    }

    // ---- the classic protocol's bytes ------------------------------------------------------------------------

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }

    /** A consumer's subscription to events, saying which of its partitions it still owns (KIP-429). */
    private static byte[] subscription(Set<Integer> owned) {
        ConsumerProtocolSubscription s = new ConsumerProtocolSubscription();
        s.topics().add("events");
        if (!owned.isEmpty()) {
            s.ownedPartitions().add(new ConsumerProtocolSubscription.TopicPartition().setTopic("events")
                    .setPartitions(List.copyOf(owned)));
        }
        return bytes(s.toVersionedBuffer((short) 1));
    }

    private static byte[] assignment(Integer... partitions) {
        ConsumerProtocolAssignment a = new ConsumerProtocolAssignment();
        a.assignedPartitions().add(new ConsumerProtocolAssignment.TopicPartition().setTopic("events")
                .setPartitions(List.of(partitions)));
        return bytes(a.toVersionedBuffer((short) 1));
    }

    private static Set<Integer> partitionsOf(byte[] assignment) {
        Set<Integer> out = new TreeSet<>();
        ConsumerProtocol.assignedPartitions(assignment).orElseThrow().values().forEach(out::addAll);
        return out;
    }

    private static Set<Integer> partitionsOf(Assignment assignment) {
        return assignment.partitions().isEmpty() ? Set.of() : new TreeSet<>(assignment.partitions().get(TOPIC));
    }

    // ---- requests ------------------------------------------------------------------------------------------

    private JoinResult join(String memberId, Set<Integer> owned) {
        return join(memberId, null, owned);
    }

    private JoinResult join(String memberId, String instanceId, Set<Integer> owned) {
        AtomicReference<JoinResult> result = new AtomicReference<>();
        coordinator.joinGroup(new JoinRequest(GROUP, memberId, instanceId, "client", "/127.0.0.1", SESSION_MS,
                REBALANCE_MS, "consumer", List.of(new Protocol("cooperative-sticky", subscription(owned)),
                new Protocol("range", subscription(owned))), true, true), result::set);
        timer.runPending();
        return result.get();
    }

    /** KIP-394: a new member first gets its id, then joins with it (the answer may be held: null). */
    private String joinNew() {
        JoinResult first = join("", Set.of());
        assertEquals(Errors.MEMBER_ID_REQUIRED, first.error());
        join(first.memberId(), Set.of());
        return first.memberId();
    }

    private SyncResult sync(String memberId, int generation, Map<String, byte[]> assignments) {
        AtomicReference<SyncResult> result = new AtomicReference<>();
        coordinator.syncGroup(new SyncRequest(GROUP, generation, memberId, null, "consumer", null, assignments),
                result::set);
        timer.runPending();
        return result.get();
    }

    private Errors heartbeat(String memberId, int generation) {
        return heartbeat(memberId, null, generation);
    }

    private Errors heartbeat(String memberId, String instanceId, int generation) {
        return coordinator.heartbeat(new HeartbeatRequest(GROUP, generation, memberId, instanceId));
    }

    private Result consumerHeartbeat(String memberId, int epoch, Assignment owned) {
        return fixture.consumerHeartbeat(coordinator, memberId, null, null, epoch, owned);
    }

    private Errors commit(String memberId, int generation, int partition) {
        AtomicReference<Map<OffsetKey, Errors>> result = new AtomicReference<>();
        coordinator.commitOffsets(new CommitRequest(GROUP, generation, memberId, null, -1,
                List.of(new PartitionCommit(new OffsetKey("events", partition), 10, 0, ""))), result::set);
        timer.runPending();
        return result.get().values().iterator().next();
    }

    /** A classic member rejoins with what it owns and syncs: its new generation and assignment. */
    private record Rejoined(int generation, Set<Integer> partitions) {
    }

    private Rejoined rejoinAndSync(String memberId, Set<Integer> owned) {
        return rejoinAndSync(memberId, null, owned);
    }

    private Rejoined rejoinAndSync(String memberId, String instanceId, Set<Integer> owned) {
        JoinResult joined = join(memberId, instanceId, owned);
        assertEquals(Errors.NONE, joined.error(), memberId + " joins");
        assertEquals("cooperative-sticky", joined.protocolName(), "the member's preferred assignor");
        assertNotEquals(memberId, joined.leaderId(), "the coordinator assigns: no classic leader");
        SyncResult synced = sync(memberId, joined.generationId(), Map.of());
        assertEquals(Errors.NONE, synced.error(), memberId + " syncs");
        return new Rejoined(joined.generationId(), partitionsOf(synced.assignment()));
    }

    /** Members a and b of a stable classic group at generation 2 own partitions 0-2 and 3-5 of events. */
    private String[] stableClassicGroup() {
        String a = joinNew();
        assertEquals(Errors.NONE, sync(a, 1, Map.of(a, assignment(0, 1, 2, 3, 4, 5))).error());
        String b = joinNew();
        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(a, 1));
        JoinResult aJoined = join(a, Set.of(0, 1, 2, 3, 4, 5));
        assertEquals(2, aJoined.generationId());
        sync(a, 2, Map.of(a, assignment(0, 1, 2), b, assignment(3, 4, 5)));
        assertEquals(Set.of(3, 4, 5), partitionsOf(sync(b, 2, Map.of()).assignment()));
        assertEquals(GroupState.STABLE, coordinator.describeGroup(GROUP).state());
        return new String[] {a, b};
    }

    private ConsumerGroupView view() {
        return coordinator.describeConsumerGroup(GROUP);
    }

    // ---- tests ---------------------------------------------------------------------------------------------

    @Test
    void aConsumerProtocolMemberUpgradesAStableClassicGroupAndTakesPartitionsOnlyOnceGivenUp() {
        String[] ab = stableClassicGroup();
        String a = ab[0];
        String b = ab[1];

        Result c = consumerHeartbeat("c", 0, null);
        assertEquals(Errors.NONE.code(), c.errorCode());
        assertEquals(3, c.memberEpoch(), "the group epoch continues from the classic generation");
        assertTrue(c.assignment().isEmpty(), "a and b still own every partition");
        assertEquals(3, view().members().size());
        assertEquals(Set.of(a, b), Set.copyOf(view().members().stream().filter(ConsumerGroupView.MemberView::classic)
                .map(ConsumerGroupView.MemberView::memberId).toList()), "a and b are classic members");
        assertEquals(Errors.NONE, commit(a, 2, 0), "a classic member commits at its generation");

        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(a, 2), "a's target moved: it must rejoin");
        Rejoined aRevoking = rejoinAndSync(a, Set.of(0, 1, 2));
        assertEquals(2, aRevoking.generation(), "a keeps its generation until it gave up a partition");
        assertEquals(2, aRevoking.partitions().size());
        Set<Integer> aGivesUp = new HashSet<>(Set.of(0, 1, 2));
        aGivesUp.removeAll(aRevoking.partitions());
        Result cWaiting = consumerHeartbeat("c", 3, Assignment.EMPTY);
        assertTrue(cWaiting.assignment().isEmpty(), "c waits until a's JoinGroup shows the partition given up");
        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(a, 2));

        Rejoined aDone = rejoinAndSync(a, aRevoking.partitions());
        assertEquals(3, aDone.generation());
        assertEquals(aRevoking.partitions(), aDone.partitions());
        assertEquals(Errors.NONE, heartbeat(a, 3));
        assertEquals(aGivesUp, partitionsOf(consumerHeartbeat("c", 3, Assignment.EMPTY).assignment()));

        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(b, 2));
        Rejoined bRevoking = rejoinAndSync(b, Set.of(3, 4, 5));
        Rejoined bDone = rejoinAndSync(b, bRevoking.partitions());
        assertEquals(3, bDone.generation());
        Result cDone = consumerHeartbeat("c", 3, Assignment.of(TOPIC, aGivesUp.toArray(Integer[]::new)));
        Set<Integer> all = new TreeSet<>(aDone.partitions());
        all.addAll(bDone.partitions());
        all.addAll(partitionsOf(cDone.assignment()));
        assertEquals(Set.of(0, 1, 2, 3, 4, 5), all);
        assertEquals(2, partitionsOf(cDone.assignment()).size());
        assertEquals("Stable", view().state());
        assertEquals(Errors.NONE, commit(b, 3, bDone.partitions().iterator().next()));
    }

    @Test
    void describeGroupsAnswersAConsumerGroupsMembersClassicOnesWithTheirOwnSubscription() {
        String[] ab = stableClassicGroup();
        consumerHeartbeat("c", 0, null);
        GroupApi.DescribedGroup described = coordinator.describeGroup(GROUP);
        assertEquals(Errors.NONE, described.error());
        assertEquals("consumer", described.protocolType());
        assertEquals(view().state(), described.stateName());
        assertEquals(view().assignorName(), described.protocolData());
        assertEquals(3, described.members().size());
        Map<String, GroupApi.DescribedMember> byId = new HashMap<>();
        described.members().forEach(m -> byId.put(m.memberId(), m));
        assertEquals(Set.of(0, 1, 2), partitionsOf(byId.get(ab[0]).assignment()));
        assertEquals(Set.of(3, 4, 5), partitionsOf(byId.get(ab[1]).assignment()));
        assertArrayEquals(subscription(Set.of(0, 1, 2, 3, 4, 5)), byId.get(ab[0]).metadata(),
                "a classic member's metadata: its last JoinGroup's subscription");
        assertEquals("client", byId.get("c").clientId());
        assertEquals("/127.0.0.1", byId.get("c").clientHost());
        assertEquals(Set.of("events"), ConsumerProtocol.subscribedTopics(byId.get("c").metadata()).orElseThrow());
        assertTrue(partitionsOf(byId.get("c").assignment()).isEmpty(), "c owns nothing yet");
    }

    @Test
    void anEagerMembersJoinGroupShowsItsPartitionsGivenUpAtOnce() {
        String a = stableClassicGroup()[0];
        consumerHeartbeat("c", 0, null);
        Rejoined eager = rejoinAndSync(a, Set.of()); // an eager consumer revokes everything before it joins
        assertEquals(3, eager.generation(), "nothing left to give up: the new generation at once");
        assertEquals(2, eager.partitions().size());
    }

    @Test
    void aNewClassicMemberJoinsTheConsumerGroupAndTheUnknownAreRefused() {
        stableClassicGroup();
        consumerHeartbeat("c", 0, null);
        String d = joinNew();
        assertEquals(4, view().members().size());
        assertEquals(4, view().groupEpoch());
        assertEquals(Errors.UNKNOWN_MEMBER_ID, join("stranger", Set.of()).error());
        assertEquals(Errors.UNKNOWN_MEMBER_ID, heartbeat("stranger", 4));
        assertEquals(Errors.UNKNOWN_MEMBER_ID, heartbeat("c", 3), "c speaks the consumer protocol");
        assertEquals(Errors.ILLEGAL_GENERATION, sync(d, 99, Map.of()).error());
    }

    @Test
    void aClassicMemberThatLeavesOrGoesSilentLosesItsPartitions() {
        String[] ab = stableClassicGroup();
        consumerHeartbeat("c", 0, null);
        assertEquals(List.of(Errors.NONE),
                coordinator.leaveGroup(GROUP, List.of(new LeavingMember(ab[0], null))).memberErrors());
        timer.runPending();
        assertEquals(4, view().groupEpoch());
        assertEquals(2, view().members().size());

        timer.advance(SESSION_MS + 1); // b stops heartbeating; c keeps going
        assertEquals(1, view().members().size(), "b's session ended");
        assertEquals("c", view().members().get(0).memberId());
    }

    @Test
    void theLastConsumerProtocolMemberLeavingTurnsTheGroupBackToAClassicOneThatRebalances() {
        String[] ab = stableClassicGroup();
        String a = ab[0];
        String b = ab[1];
        Result c = consumerHeartbeat("c", 0, null);
        Rejoined aRevoking = rejoinAndSync(a, Set.of(0, 1, 2));
        Rejoined aDone = rejoinAndSync(a, aRevoking.partitions());

        assertEquals(Errors.NONE.code(), consumerHeartbeat("c", c.memberEpoch(), null).errorCode());
        assertEquals(Errors.NONE.code(), consumerHeartbeat("c", ConsumerHeartbeat.LEAVE_EPOCH, null).errorCode());
        assertEquals(Errors.GROUP_ID_NOT_FOUND, view().error(), "no longer a consumer group");
        GroupApi.DescribedGroup classic = coordinator.describeGroup(GROUP);
        assertEquals(GroupState.PREPARING_REBALANCE, classic.state());
        assertEquals(2, classic.members().size());

        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(a, aDone.generation()),
                "a's generation is still known: it is asked to rejoin, keeping its partitions");
        JoinResult aJoined = join(a, aDone.partitions());
        assertNull(aJoined, "held until b rejoins");
        JoinResult bJoined = join(b, Set.of(3, 4, 5));
        assertEquals(Errors.NONE, bJoined.error());
        assertEquals(GroupState.COMPLETING_REBALANCE, coordinator.describeGroup(GROUP).state());
        String leader = bJoined.leaderId();
        assertTrue(leader.equals(a) || leader.equals(b));
        sync(leader, bJoined.generationId(), Map.of(a, assignment(0, 1, 2), b, assignment(3, 4, 5)));
        String follower = leader.equals(a) ? b : a;
        assertEquals(Errors.NONE, sync(follower, bJoined.generationId(), Map.of()).error());
        assertEquals(GroupState.STABLE, coordinator.describeGroup(GROUP).state());
        assertEquals(Errors.NONE, commit(a, bJoined.generationId(), 0));
    }

    @Test
    void aMemberBehindTheGenerationAtADowngradeCommitsAtItsEpochUntilTheNextGeneration() {
        String[] ab = stableClassicGroup();
        String a = ab[0];
        String b = ab[1];
        consumerHeartbeat("c", 0, null);
        Rejoined aRevoking = rejoinAndSync(a, Set.of(0, 1, 2));
        Rejoined aDone = rejoinAndSync(a, aRevoking.partitions());
        assertEquals(3, aDone.generation());
        // b has not rejoined since c came: it is still at epoch 2 with partitions 3-5 when c leaves.
        consumerHeartbeat("c", ConsumerHeartbeat.LEAVE_EPOCH, null);
        assertEquals(GroupState.PREPARING_REBALANCE, coordinator.describeGroup(GROUP).state());

        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(b, 2), "b is asked to rejoin, not told it is lost");
        assertEquals(Errors.NONE, commit(b, 2, 3), "b commits what it processed before giving partitions up");
        assertEquals(Errors.ILLEGAL_GENERATION, commit(b, 2, 0), "only partitions b owned at the downgrade");
        assertEquals(Errors.ILLEGAL_GENERATION, commit(b, 1, 3));
        assertEquals(Errors.NONE, commit(a, 3, 0));

        assertNull(join(a, aDone.partitions()));
        JoinResult bJoined = join(b, Set.of());
        assertEquals(4, bJoined.generationId());
        sync(bJoined.leaderId(), 4, Map.of(a, assignment(0, 1, 2), b, assignment(3, 4, 5)));
        sync(bJoined.leaderId().equals(a) ? b : a, 4, Map.of());
        assertEquals(GroupState.STABLE, coordinator.describeGroup(GROUP).state());
        assertEquals(Errors.ILLEGAL_GENERATION, commit(b, 2, 3), "the rebalance moved on: the old epoch is over");
        assertEquals(Errors.ILLEGAL_GENERATION, heartbeat(b, 2));
    }

    @Test
    void aStaticClassicMemberRestartingTakesItsPredecessorsPlaceAndPartitions() {
        Result c = consumerHeartbeat("c", 0, null);
        assertEquals(6, c.assignment().size());
        JoinResult s1 = join("", "instance-s", Set.of());
        assertEquals(Errors.NONE, s1.error(), "a static member needs no member id round");
        Result cRevoking = consumerHeartbeat("c", c.memberEpoch(), c.assignment());
        Result cDone = consumerHeartbeat("c", cRevoking.memberEpoch(), cRevoking.assignment());
        assertEquals(3, cDone.assignment().size());
        Rejoined s1Done = rejoinAndSync(s1.memberId(), "instance-s", Set.of());
        assertEquals(3, s1Done.partitions().size());
        int epochBefore = view().groupEpoch();

        JoinResult s2 = join("", "instance-s", Set.of()); // restarted: a new member id, nothing owned
        assertEquals(Errors.NONE, s2.error());
        assertNotEquals(s1.memberId(), s2.memberId());
        assertEquals(s1Done.generation(), s2.generationId(), "the predecessor's epoch");
        SyncResult s2Synced = sync(s2.memberId(), s2.generationId(), Map.of());
        assertEquals(Errors.NONE, s2Synced.error());
        assertEquals(s1Done.partitions(), partitionsOf(s2Synced.assignment()), "the same partitions");
        assertEquals(epochBefore, view().groupEpoch(), "no rebalance");
        assertEquals(2, view().members().size());
        assertEquals(Errors.FENCED_INSTANCE_ID, heartbeat(s1.memberId(), "instance-s", s1Done.generation()),
                "the predecessor is fenced");
        assertEquals(Errors.NONE, heartbeat(s2.memberId(), "instance-s", s2.generationId()));
        assertEquals(Errors.FENCED_INSTANCE_ID, join(s1.memberId(), "instance-s", Set.of()).error());

        coordinator = newCoordinator("bidirectional");
        assertEquals(Set.of("c", s2.memberId()), Set.copyOf(view().members().stream()
                .map(ConsumerGroupView.MemberView::memberId).toList()), "the replacement is stored");
    }

    @Test
    void thePolicyDecidesWhetherGroupsWithMembersChangeProtocol() {
        for (String forbidsUpgrade : List.of("disabled", "downgrade")) {
            coordinator = freshCoordinator(forbidsUpgrade);
            stableClassicGroup();
            Result refused = consumerHeartbeat("c", 0, null);
            assertEquals(Errors.GROUP_ID_NOT_FOUND.code(), refused.errorCode(), forbidsUpgrade);
            assertEquals(GroupState.STABLE, coordinator.describeGroup(GROUP).state(), "unchanged");
        }

        coordinator = freshCoordinator("upgrade");
        stableClassicGroup();
        Result c = consumerHeartbeat("c", 0, null);
        assertEquals(Errors.NONE.code(), c.errorCode());
        consumerHeartbeat("c", ConsumerHeartbeat.LEAVE_EPOCH, null);
        assertEquals(2, view().members().size(), "upgrade only: the group stays a consumer group");

        coordinator = freshCoordinator("disabled");
        consumerHeartbeat("x", 0, null);
        JoinResult refused = join("", Set.of());
        assertEquals(Errors.INCONSISTENT_GROUP_PROTOCOL, refused.error(), "a classic member may not join");
    }

    @Test
    void aNewCoordinatorReplaysTheUpgradedGroupAndTheDowngradedOne() {
        String[] ab = stableClassicGroup();
        String a = ab[0];
        consumerHeartbeat("c", 0, null);
        Rejoined aRevoking = rejoinAndSync(a, Set.of(0, 1, 2));
        ConsumerGroupView before = view();

        coordinator = newCoordinator("bidirectional");
        ConsumerGroupView after = view();
        assertEquals(before.groupEpoch(), after.groupEpoch());
        assertEquals(before.members(), after.members());
        assertEquals(Errors.REBALANCE_IN_PROGRESS, heartbeat(a, 2), "a still has a partition to give up");
        assertEquals(aRevoking.partitions(), rejoinAndSync(a, aRevoking.partitions()).partitions());

        consumerHeartbeat("c", ConsumerHeartbeat.LEAVE_EPOCH, null);
        coordinator = newCoordinator("bidirectional");
        assertEquals(Errors.GROUP_ID_NOT_FOUND, view().error());
        GroupApi.DescribedGroup classic = coordinator.describeGroup(GROUP);
        assertEquals(2, classic.members().size());
        assertEquals(Set.of(a, ab[1]), Set.copyOf(classic.members().stream()
                .map(GroupApi.DescribedMember::memberId).toList()));
        assertEquals(aRevoking.partitions(), partitionsOf(classic.members().stream()
                .filter(m -> m.memberId().equals(a)).findFirst().orElseThrow().assignment()));
        List<CoordinatorRecord> records = new ArrayList<>(fixture.log().records(0));
        assertTrue(records.stream().anyMatch(r -> r instanceof CoordinatorRecord.GroupMetadata g && g.value() == null),
                "the upgrade removed the classic group's record");
    }
}
