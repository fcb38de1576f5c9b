package io.kraft.broker.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.GroupApi.CommitRequest;
import io.kraft.broker.group.GroupApi.PartitionCommit;
import io.kraft.broker.group.consumer.Assignment;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.broker.group.consumer.ConsumerHeartbeat;
import io.kraft.broker.group.consumer.ConsumerHeartbeat.Result;
import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.storage.errors.Errors;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The consumer protocol (KIP-848) through the coordinator, on a manual clock and an in-memory log. */
class ConsumerGroupCoordinatorTest {
    private static final String GROUP = "kip848";
    private static final UUID TOPIC = new UUID(7, 7);
    private static final int SESSION_MS = 45_000;

    private final ConsumerGroupFixture fixture = new ConsumerGroupFixture(GROUP, TOPIC);
    private final ManualTimer timer = fixture.timer;
    private GroupCoordinator coordinator;

    @BeforeEach
    void start() {
        coordinator = newCoordinator();
    }

    private GroupCoordinator newCoordinator() {
        return fixture.newCoordinator(ConsumerGroupConfig.defaults());
    }

    private Result heartbeat(String memberId, int epoch, Assignment owned) {
        return heartbeat(memberId, null, null, epoch, owned);
    }

    private Result heartbeat(String memberId, String instanceId, String assignor, int epoch, Assignment owned) {
        return fixture.consumerHeartbeat(coordinator, memberId, instanceId, assignor, epoch, owned);
    }

    private int groupEpoch() {
        return coordinator.describeConsumerGroup(GROUP).groupEpoch();
    }

    @Test
    void aStaticMemberComingBackKeepsItsPartitionsWithoutARebalance() {
        Result a = heartbeat("a", "instance-a", null, 0, null);
        heartbeat("b", 0, null);
        Result aRevoking = heartbeat("a", a.memberEpoch(), a.assignment());
        Result aDone = heartbeat("a", aRevoking.memberEpoch(), aRevoking.assignment());
        assertEquals(3, heartbeat("b", 2, Assignment.EMPTY).assignment().size());
        int epochBefore = groupEpoch();

        assertEquals(-2, heartbeat("a", "instance-a", null, ConsumerHeartbeat.STATIC_LEAVE_EPOCH, null)
                .memberEpoch());
        assertEquals(3, heartbeat("b", 2, Assignment.EMPTY).assignment().size(), "a's partitions wait for it");

        Result back = heartbeat("a2", "instance-a", null, 0, null);
        assertEquals(Errors.NONE.code(), back.errorCode());
        assertEquals(aDone.assignment(), back.assignment());
        assertEquals(aDone.memberEpoch(), back.memberEpoch());
        assertEquals(epochBefore, groupEpoch(), "no rebalance");
        assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), heartbeat("a", aDone.memberEpoch(), null).errorCode());
    }

    @Test
    void anActiveStaticMembersInstanceIdIsRefused() {
        heartbeat("a", "instance-a", null, 0, null);
        assertEquals(Errors.UNRELEASED_INSTANCE_ID.code(), heartbeat("a2", "instance-a", null, 0, null).errorCode());
    }

    @Test
    void aMemberMayAskForTheRangeAssignor() {
        Result a = heartbeat("a", null, "range", 0, null);
        heartbeat("b", null, "range", 0, null);
        a = heartbeat("a", a.memberEpoch(), a.assignment());
        assertEquals("range", coordinator.describeConsumerGroup(GROUP).assignorName());
        assertEquals(Assignment.of(TOPIC, 0, 1, 2), a.assignment());
    }

    @Test
    void aSecondMemberGetsPartitionsOnlyAfterTheFirstRevokesThem() {
        Result a = heartbeat("a", 0, null);
        assertEquals(Errors.NONE.code(), a.errorCode());
        assertEquals(1, a.memberEpoch());
        assertEquals(6, a.assignment().size());

        Result b = heartbeat("b", 0, null);
        assertEquals(2, b.memberEpoch());
        assertEquals(0, b.assignment().size(), "a still owns every partition");
        assertEquals(250, b.heartbeatIntervalMs(), "a member waiting for partitions polls for them");

        Result aRevoking = heartbeat("a", 1, a.assignment());
        assertEquals(1, aRevoking.memberEpoch(), "a keeps its epoch until it revoked");
        assertEquals(3, aRevoking.assignment().size());

        Result aDone = heartbeat("a", 1, aRevoking.assignment());
        assertEquals(2, aDone.memberEpoch());
        Result bNow = heartbeat("b", 2, Assignment.EMPTY);
        assertEquals(3, bNow.assignment().size());
        assertTrue(bNow.assignment().intersect(aDone.assignment()).isEmpty());
        assertEquals(5_000, bNow.heartbeatIntervalMs(), "a member with its target heartbeats at the configured pace");
        assertEquals(5_000, aDone.heartbeatIntervalMs());
    }

    @Test
    void staleEpochsAreFencedAndUnknownMembersRefused() {
        heartbeat("a", 0, null);
        assertEquals(Errors.FENCED_MEMBER_EPOCH.code(), heartbeat("a", 7, null).errorCode());
        assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), heartbeat("zz", 1, null).errorCode());
    }

    @Test
    void anExpiredMemberLosesItsPartitions() {
        Result a = heartbeat("a", 0, null);
        heartbeat("b", 0, null);
        heartbeat("a", 1, a.assignment());
        timer.advance(SESSION_MS / 2);
        Result b = heartbeat("b", 2, Assignment.EMPTY);
        timer.advance(SESSION_MS / 2 + 1); // a's session is over, b's is not
        b = heartbeat("b", b.memberEpoch(), b.assignment());
        assertEquals(Errors.NONE.code(), b.errorCode());
        assertEquals(6, b.assignment().size());
        assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), heartbeat("a", 2, null).errorCode());
    }

    @Test
    void aMemberThatNeverRevokesIsRemovedAfterItsRebalanceTimeout() {
        Result a = heartbeat("a", 0, null);
        Result b = heartbeat("b", 0, null);
        assertEquals(1, heartbeat("a", a.memberEpoch(), a.assignment()).memberEpoch(), "a is told to revoke");
        for (int elapsed = 0; elapsed < 300_000; elapsed += 10_000) {
            timer.advance(10_000);
            heartbeat("a", a.memberEpoch(), null); // alive, but never reports the partitions gone
            b = heartbeat("b", b.memberEpoch(), b.assignment());
        }
        timer.advance(10_000);
        b = heartbeat("b", b.memberEpoch(), b.assignment());
        assertEquals(6, b.assignment().size());
        assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), heartbeat("a", a.memberEpoch(), null).errorCode());
    }

    @Test
    void consumerGroupsAreCountedUnderTheirProtocolAndState() throws Exception {
        Result a = heartbeat("a", 0, null);
        heartbeat("b", 0, null); // a must revoke: the group reconciles
        assertEquals(1, coordinator.counts().consumerInState("reconciling"));
        ByteArrayOutputStream scrape = new ByteArrayOutputStream();
        try (KafkaMetrics metrics = KafkaMetrics.withoutJmx()) {
            GroupCoordinatorMetrics.gauges(metrics, key -> -1).update(coordinator.counts());
            metrics.writePrometheus(scrape);
        }
        String text = scrape.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains(
                "kafka_server_group_coordinator_metrics_group_count_by_protocol{protocol=\"consumer\"} 1"), text);
        assertTrue(text.contains(
                "kafka_server_group_coordinator_metrics_group_count_by_protocol{protocol=\"classic\"} 0"), text);
        assertTrue(text.contains("kafka_server_group_coordinator_metrics_consumer_group_count_by_state"
                + "{state=\"reconciling\"} 1"), text);
        assertEquals(Errors.NONE.code(), a.errorCode());
    }

    @Test
    void offsetsOfSubscribedTopicsCannotBeDeletedWhileTheGroupHasMembers() {
        heartbeat("a", 0, null);
        AtomicReference<GroupApi.OffsetDeleteResult> result = new AtomicReference<>();
        coordinator.deleteOffsets(GROUP, List.of(new OffsetKey("events", 0), new OffsetKey("other", 0)),
                result::set);
        timer.runPending();
        assertEquals(Errors.NONE, result.get().error());
        assertEquals(Errors.GROUP_SUBSCRIBED_TO_TOPIC, result.get().partitionErrors().get(new OffsetKey("events", 0)));
        assertEquals(Errors.NONE, result.get().partitionErrors().get(new OffsetKey("other", 0)));
    }

    @Test
    void leavingFreesPartitionsAtOnce() {
        heartbeat("a", 0, null);
        Result leave = heartbeat("a", ConsumerHeartbeat.LEAVE_EPOCH, null);
        assertEquals(Errors.NONE.code(), leave.errorCode());
        assertEquals(-1, leave.memberEpoch());
        assertEquals(6, heartbeat("b", 0, null).assignment().size());
    }

    @Test
    void commitsNeedTheMembersCurrentEpoch() {
        Result a = heartbeat("a", 0, null);
        List<PartitionCommit> one = List.of(new PartitionCommit(new OffsetKey("events", 0), 5, -1, ""));
        AtomicReference<Map<OffsetKey, Errors>> stale = new AtomicReference<>();
        coordinator.commitOffsets(new CommitRequest(GROUP, 9, "a", null, -1, one), stale::set);
        timer.runPending();
        assertEquals(Errors.STALE_MEMBER_EPOCH, stale.get().get(new OffsetKey("events", 0)));
        AtomicReference<Map<OffsetKey, Errors>> ok = new AtomicReference<>();
        coordinator.commitOffsets(new CommitRequest(GROUP, a.memberEpoch(), "a", null, -1, one), ok::set);
        timer.runPending();
        assertEquals(Errors.NONE, ok.get().get(new OffsetKey("events", 0)));
    }

    @Test
    void aNewCoordinatorReplaysTheGroupFromTheLog() {
        Result a = heartbeat("a", 0, null);
        Result b = heartbeat("b", 0, null);
        Result aRevoking = heartbeat("a", 1, a.assignment());
        coordinator.onResigned(0);
        coordinator = newCoordinator();
        // a is still revoking on the new coordinator: same epoch, same partitions
        Result again = heartbeat("a", 1, a.assignment());
        assertEquals(Errors.NONE.code(), again.errorCode());
        assertEquals(aRevoking.assignment(), again.assignment());
        Result done = heartbeat("a", 1, again.assignment());
        assertEquals(2, done.memberEpoch());
        Result bNow = heartbeat("b", b.memberEpoch(), Assignment.EMPTY);
        assertEquals(3, bNow.assignment().size());
    }
}
