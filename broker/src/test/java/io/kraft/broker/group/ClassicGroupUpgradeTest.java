package io.kraft.broker.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.GroupApi.Protocol;
import io.kraft.broker.group.consumer.Assignment;
import io.kraft.broker.group.consumer.ConsumerGroup;
import io.kraft.broker.group.consumer.ConsumerGroupConfig;
import io.kraft.broker.group.consumer.ConsumerGroupMember;
import io.kraft.broker.group.consumer.ConsumerGroupRecord;
import io.kraft.broker.group.consumer.ConsumerGroupRecordCodec;
import io.kraft.broker.group.consumer.MemberState;
import io.kraft.broker.group.consumer.MigrationPolicy;
import io.kraft.broker.group.consumer.TopicCatalog;
import io.kraft.broker.group.consumer.TopicInfo;
import io.kraft.broker.protocol.message.ConsumerProtocolAssignment;
import io.kraft.broker.protocol.message.ConsumerProtocolSubscription;
import io.kraft.config.ConfigException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ClassicGroupUpgradeTest {
    private static final TopicInfo ORDERS = new TopicInfo(new UUID(1, 2), "orders", 6);
    private static final TopicCatalog TOPICS = new TopicCatalog() {
        @Override
        public TopicInfo byName(String name) {
            return name.equals(ORDERS.name()) ? ORDERS : null;
        }

        @Override
        public Collection<TopicInfo> all() {
            return List.of(ORDERS);
        }
    };

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }

    private static byte[] subscription(String topic) {
        ConsumerProtocolSubscription s = new ConsumerProtocolSubscription();
        s.topics().add(topic);
        return bytes(s.toVersionedBuffer((short) 1));
    }

    private static byte[] assignment(String topic, Integer... partitions) {
        ConsumerProtocolAssignment a = new ConsumerProtocolAssignment();
        a.assignedPartitions().add(new ConsumerProtocolAssignment.TopicPartition().setTopic(topic)
                .setPartitions(List.of(partitions)));
        return bytes(a.toVersionedBuffer((short) 1));
    }

    /** A stable classic consumer group at generation 4 whose two members split the six partitions of orders. */
    private static ClassicGroup stableClassicGroup() {
        ClassicGroup group = new ClassicGroup("g", 0);
        group.protocolType(ConsumerProtocol.PROTOCOL_TYPE);
        group.protocolName("range");
        group.generationId(4);
        GroupMember a = new GroupMember("a", null, "client-a", "/10.0.0.1", 60_000, 45_000,
                List.of(new Protocol("range", subscription("orders"))));
        a.assignment(assignment("orders", 0, 1, 2));
        GroupMember b = new GroupMember("b", "instance-b", "client-b", "/10.0.0.2", 30_000, 45_000,
                List.of(new Protocol("range", subscription("orders"))));
        b.assignment(assignment("orders", 3, 4, 5));
        group.add(a);
        group.add(b);
        group.restoreState(GroupState.STABLE, 0);
        return group;
    }

    @Test
    void theMigrationPolicyIsKafkasSettingWithBidirectionalByDefault() {
        assertEquals(MigrationPolicy.BIDIRECTIONAL, ConsumerGroupConfig.defaults().migrationPolicy());
        assertEquals(MigrationPolicy.UPGRADE, ConsumerGroupConfig.fromProperties(
                Map.of(ConsumerGroupConfig.MIGRATION_POLICY, "Upgrade")).migrationPolicy());
        ConfigException bad = assertThrows(ConfigException.class, () ->
                ConsumerGroupConfig.fromProperties(Map.of(ConsumerGroupConfig.MIGRATION_POLICY, "sideways")));
        assertTrue(bad.getMessage().contains("group.consumer.migration.policy"), bad.getMessage());
        assertTrue(MigrationPolicy.UPGRADE.allowsUpgrade() && !MigrationPolicy.UPGRADE.allowsDowngrade());
        assertTrue(!MigrationPolicy.DOWNGRADE.allowsUpgrade() && MigrationPolicy.DOWNGRADE.allowsDowngrade());
        assertTrue(!MigrationPolicy.DISABLED.allowsUpgrade() && !MigrationPolicy.DISABLED.allowsDowngrade());
    }

    @Test
    void aStableClassicConsumerGroupMayBeUpgradedUnlessThePolicyForbidsIt() {
        assertNull(ClassicGroupUpgrade.refusal(MigrationPolicy.BIDIRECTIONAL, stableClassicGroup()));
        assertNull(ClassicGroupUpgrade.refusal(MigrationPolicy.UPGRADE, stableClassicGroup()));
        assertEquals("group.consumer.migration.policy is downgrade",
                ClassicGroupUpgrade.refusal(MigrationPolicy.DOWNGRADE, stableClassicGroup()));
        assertEquals("group.consumer.migration.policy is disabled",
                ClassicGroupUpgrade.refusal(MigrationPolicy.DISABLED, stableClassicGroup()));
    }

    @Test
    void aRebalancingGroupOrOneOfAnotherProtocolTypeOrWithUnreadableBytesIsNotUpgraded() {
        ClassicGroup rebalancing = stableClassicGroup();
        rebalancing.restoreState(GroupState.PREPARING_REBALANCE, 0);
        assertTrue(ClassicGroupUpgrade.refusal(MigrationPolicy.BIDIRECTIONAL, rebalancing).contains("rebalancing"));

        ClassicGroup connect = stableClassicGroup();
        connect.protocolType("connect");
        assertTrue(ClassicGroupUpgrade.refusal(MigrationPolicy.BIDIRECTIONAL, connect).contains("connect"));

        ClassicGroup garbled = stableClassicGroup();
        garbled.member("b").assignment(new byte[] {0, 1, 7});
        assertEquals("member b holds no readable consumer assignment",
                ClassicGroupUpgrade.refusal(MigrationPolicy.BIDIRECTIONAL, garbled));
    }

    @Test
    void classicMembersBecomeStableMembersOwningTheirAssignmentAtTheGenerationAsEpoch() {
        List<ConsumerGroupRecord> records = new ArrayList<>();
        ConsumerGroup group = ClassicGroupUpgrade.convert(stableClassicGroup(), TOPICS, records);

        assertEquals(4, group.groupEpoch());
        assertEquals(4, group.assignmentEpoch());
        assertEquals("Stable", group.stateName());
        assertEquals(Map.of(ORDERS.id(), ORDERS), group.subscribedTopics());
        ConsumerGroupMember a = group.member("a");
        assertEquals(Assignment.of(ORDERS.id(), 0, 1, 2), a.assigned());
        assertEquals(Assignment.of(ORDERS.id(), 0, 1, 2), group.target("a"));
        assertEquals(4, a.memberEpoch());
        assertEquals(MemberState.STABLE, a.state());
        assertEquals(List.of("orders"), a.subscription().topicNames());
        assertEquals(60_000, a.subscription().rebalanceTimeoutMs());
        assertEquals("client-a", a.subscription().clientId());
        // Still a JoinGroup member: its session timeout and offered protocols are kept, and stored.
        assertEquals(new ConsumerGroupMember.ClassicMetadata(45_000, List.of(new ConsumerGroupMember.ClassicProtocol(
                "range", subscription("orders")))), a.subscription().classic());
        assertTrue(a.isClassic());
        ConsumerGroupMember b = group.member("b");
        assertEquals("instance-b", b.subscription().instanceId());
        assertEquals(Assignment.of(ORDERS.id(), 3, 4, 5), b.assigned());
        // A partition is never owned by two members after the conversion.
        assertTrue(a.assigned().intersect(b.assigned()).isEmpty());

        // The group epoch first and the assignment epoch last, as a replay expects them; three records per member.
        assertEquals(new ConsumerGroupRecord.GroupEpoch("g", 4), records.get(0));
        assertEquals(new ConsumerGroupRecord.TargetAssignmentEpoch("g", 4), records.get(records.size() - 1));
        assertEquals(2 + 3 * 2, records.size());
        for (ConsumerGroupRecord record : records) {
            ByteBuffer key = ConsumerGroupRecordCodec.encodeKey(record);
            assertEquals(record, ConsumerGroupRecordCodec.decode(key.getShort(), key,
                    ConsumerGroupRecordCodec.encodeValue(record)));
        }
    }

    @Test
    void partitionsOfATopicDeletedSinceTheLastSyncAreDropped() {
        ClassicGroup classic = stableClassicGroup();
        classic.member("a").assignment(assignment("gone", 0));
        ConsumerGroup group = ClassicGroupUpgrade.convert(classic, TOPICS, new ArrayList<>());
        assertTrue(group.member("a").assigned().isEmpty());
        assertEquals(Assignment.of(ORDERS.id(), 3, 4, 5), group.member("b").assigned());
    }
}
