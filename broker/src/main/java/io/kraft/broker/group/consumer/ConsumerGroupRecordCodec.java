package io.kraft.broker.group.consumer;

import io.kraft.broker.group.consumer.ConsumerGroupMember.ClassicMetadata;
import io.kraft.broker.group.consumer.ConsumerGroupMember.ClassicProtocol;
import io.kraft.broker.group.consumer.ConsumerGroupMember.CurrentAssignment;
import io.kraft.broker.group.consumer.ConsumerGroupMember.Subscription;
import io.kraft.broker.group.consumer.ConsumerGroupRecord.CurrentMember;
import io.kraft.broker.group.consumer.ConsumerGroupRecord.GroupEpoch;
import io.kraft.broker.group.consumer.ConsumerGroupRecord.MemberMetadata;
import io.kraft.broker.group.consumer.ConsumerGroupRecord.TargetAssignmentEpoch;
import io.kraft.broker.group.consumer.ConsumerGroupRecord.TargetMember;
import io.kraft.broker.protocol.message.ConsumerGroupCurrentMemberAssignmentKey;
import io.kraft.broker.protocol.message.ConsumerGroupCurrentMemberAssignmentValue;
import io.kraft.broker.protocol.message.ConsumerGroupMemberMetadataKey;
import io.kraft.broker.protocol.message.ConsumerGroupMemberMetadataValue;
import io.kraft.broker.protocol.message.ConsumerGroupMetadataKey;
import io.kraft.broker.protocol.message.ConsumerGroupMetadataValue;
import io.kraft.broker.protocol.message.ConsumerGroupTargetAssignmentMemberKey;
import io.kraft.broker.protocol.message.ConsumerGroupTargetAssignmentMemberValue;
import io.kraft.broker.protocol.message.ConsumerGroupTargetAssignmentMetadataKey;
import io.kraft.broker.protocol.message.ConsumerGroupTargetAssignmentMetadataValue;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * Key and value bytes of the KIP-848 consumer group records: keys versions 3 (group), 5 (member metadata),
 * 6 (target assignment epoch), 7 (target of a member) and 8 (current assignment of a member), values version 0,
 * laid out by the data specs {@code ConsumerGroup*Key/Value} in {@code broker/src/main/messages}. (Key version 4,
 * the subscribed topics' metadata, is not written: the assignors read topics from the metadata image.)
 */
public final class ConsumerGroupRecordCodec {
    public static final short GROUP_KEY = 3;
    public static final short MEMBER_METADATA_KEY = 5;
    public static final short TARGET_EPOCH_KEY = 6;
    public static final short TARGET_MEMBER_KEY = 7;
    public static final short CURRENT_MEMBER_KEY = 8;
    private static final short VALUE_VERSION = 0;

    private ConsumerGroupRecordCodec() {
    }

    /** Whether a key of this version is one of ours. */
    public static boolean isConsumerKey(short keyVersion) {
        return keyVersion == GROUP_KEY || (keyVersion >= MEMBER_METADATA_KEY && keyVersion <= CURRENT_MEMBER_KEY);
    }

    public static ByteBuffer encodeKey(ConsumerGroupRecord record) {
        if (record instanceof GroupEpoch r) {
            return new ConsumerGroupMetadataKey().setGroupId(r.groupId()).toVersionedBuffer(GROUP_KEY);
        }
        if (record instanceof MemberMetadata r) {
            return new ConsumerGroupMemberMetadataKey().setGroupId(r.groupId())
                    .setMemberId(r.memberId()).toVersionedBuffer(MEMBER_METADATA_KEY);
        }
        if (record instanceof TargetAssignmentEpoch r) {
            return new ConsumerGroupTargetAssignmentMetadataKey().setGroupId(r.groupId())
                    .toVersionedBuffer(TARGET_EPOCH_KEY);
        }
        if (record instanceof TargetMember r) {
            return new ConsumerGroupTargetAssignmentMemberKey().setGroupId(r.groupId())
                    .setMemberId(r.memberId()).toVersionedBuffer(TARGET_MEMBER_KEY);
        }
        CurrentMember r = (CurrentMember) record;
        return new ConsumerGroupCurrentMemberAssignmentKey().setGroupId(r.groupId())
                .setMemberId(r.memberId()).toVersionedBuffer(CURRENT_MEMBER_KEY);
    }

    /** The value bytes, null for a tombstone. */
    public static ByteBuffer encodeValue(ConsumerGroupRecord record) {
        if (record.isTombstone()) {
            return null;
        }
        if (record instanceof GroupEpoch r) {
            return new ConsumerGroupMetadataValue().setEpoch(r.epoch()).toVersionedBuffer(VALUE_VERSION);
        }
        if (record instanceof MemberMetadata r) {
            Subscription s = r.value();
            ConsumerGroupMemberMetadataValue v = new ConsumerGroupMemberMetadataValue()
                    .setInstanceId(s.instanceId()).setRackId(s.rackId()).setClientId(s.clientId())
                    .setClientHost(s.clientHost()).setSubscribedTopicRegex(s.topicRegex())
                    .setServerAssignor(s.serverAssignor()).setRebalanceTimeoutMs(s.rebalanceTimeoutMs());
            v.subscribedTopicNames().addAll(s.topicNames());
            if (s.classic() != null) {
                ConsumerGroupMemberMetadataValue.ClassicMemberMetadata classic = v.classicMemberMetadata()
                        .setSessionTimeoutMs(s.classic().sessionTimeoutMs());
                s.classic().protocols().forEach(p -> classic.supportedProtocols().add(
                        new ConsumerGroupMemberMetadataValue.ClassicProtocol().setName(p.name())
                                .setMetadata(ByteBuffer.wrap(p.metadata()))));
            }
            return v.toVersionedBuffer(VALUE_VERSION);
        }
        if (record instanceof TargetAssignmentEpoch r) {
            return new ConsumerGroupTargetAssignmentMetadataValue().setAssignmentEpoch(r.epoch())
                    .toVersionedBuffer(VALUE_VERSION);
        }
        if (record instanceof TargetMember r) {
            ConsumerGroupTargetAssignmentMemberValue v = new ConsumerGroupTargetAssignmentMemberValue();
            forEach(r.value(), (topic, ids) -> v.topicPartitions().add(
                    new ConsumerGroupTargetAssignmentMemberValue.TopicPartition().setTopicId(topic)
                            .setPartitions(ids)));
            return v.toVersionedBuffer(VALUE_VERSION);
        }
        CurrentAssignment c = ((CurrentMember) record).value();
        ConsumerGroupCurrentMemberAssignmentValue v = new ConsumerGroupCurrentMemberAssignmentValue()
                .setMemberEpoch(c.memberEpoch()).setPreviousMemberEpoch(c.previousMemberEpoch())
                .setState(c.state().value());
        forEach(c.assigned(), (topic, ids) -> v.assignedPartitions().add(
                new ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions().setTopicId(topic)
                        .setPartitions(ids)));
        forEach(c.pendingRevocation(), (topic, ids) -> v.partitionsPendingRevocation().add(
                new ConsumerGroupCurrentMemberAssignmentValue.RevokingTopicPartitions().setTopicId(topic)
                        .setPartitions(ids)));
        return v.toVersionedBuffer(VALUE_VERSION);
    }

    /**
     * Reads one record whose key version {@link #isConsumerKey}; {@code key} is positioned after the version.
     *
     * @param value null for a tombstone
     * @throws RuntimeException (of the readers) when the bytes are not such a record
     */
    public static ConsumerGroupRecord decode(short keyVersion, ByteBuffer key, ByteBuffer value) {
        ByteBuffer in = value == null ? null : value.duplicate();
        if (in != null) {
            short version = in.getShort();
            if (version != VALUE_VERSION) {
                throw new IllegalArgumentException("unknown consumer group value version " + version);
            }
        }
        switch (keyVersion) {
            case GROUP_KEY: {
                ConsumerGroupMetadataKey k = ConsumerGroupMetadataKey.parse(key, keyVersion);
                return new GroupEpoch(k.groupId(), in == null ? null
                        : ConsumerGroupMetadataValue.parse(in, VALUE_VERSION).epoch());
            }
            case MEMBER_METADATA_KEY: {
                ConsumerGroupMemberMetadataKey k = ConsumerGroupMemberMetadataKey.parse(key, keyVersion);
                Subscription s = null;
                if (in != null) {
                    ConsumerGroupMemberMetadataValue v = ConsumerGroupMemberMetadataValue.parse(in, VALUE_VERSION);
                    s = new Subscription(v.instanceId(), v.rackId(), v.clientId(), v.clientHost(),
                            v.subscribedTopicNames(), v.subscribedTopicRegex(), v.serverAssignor(),
                            v.rebalanceTimeoutMs(), classic(v.classicMemberMetadata()));
                }
                return new MemberMetadata(k.groupId(), k.memberId(), s);
            }
            case TARGET_EPOCH_KEY: {
                ConsumerGroupTargetAssignmentMetadataKey k =
                        ConsumerGroupTargetAssignmentMetadataKey.parse(key, keyVersion);
                return new TargetAssignmentEpoch(k.groupId(), in == null ? null
                        : ConsumerGroupTargetAssignmentMetadataValue.parse(in, VALUE_VERSION).assignmentEpoch());
            }
            case TARGET_MEMBER_KEY: {
                ConsumerGroupTargetAssignmentMemberKey k = ConsumerGroupTargetAssignmentMemberKey.parse(key, keyVersion);
                Assignment a = null;
                if (in != null) {
                    Map<UUID, SortedSet<Integer>> byTopic = new TreeMap<>();
                    ConsumerGroupTargetAssignmentMemberValue.parse(in, VALUE_VERSION).topicPartitions()
                            .forEach(tp -> byTopic.put(tp.topicId(), new TreeSet<>(tp.partitions())));
                    a = new Assignment(byTopic);
                }
                return new TargetMember(k.groupId(), k.memberId(), a);
            }
            case CURRENT_MEMBER_KEY: {
                ConsumerGroupCurrentMemberAssignmentKey k =
                        ConsumerGroupCurrentMemberAssignmentKey.parse(key, keyVersion);
                CurrentAssignment c = null;
                if (in != null) {
                    ConsumerGroupCurrentMemberAssignmentValue v =
                            ConsumerGroupCurrentMemberAssignmentValue.parse(in, VALUE_VERSION);
                    Map<UUID, SortedSet<Integer>> assigned = new TreeMap<>();
                    v.assignedPartitions().forEach(tp -> assigned.put(tp.topicId(), new TreeSet<>(tp.partitions())));
                    Map<UUID, SortedSet<Integer>> revoking = new TreeMap<>();
                    v.partitionsPendingRevocation().forEach(
                            tp -> revoking.put(tp.topicId(), new TreeSet<>(tp.partitions())));
                    c = new CurrentAssignment(v.memberEpoch(), v.previousMemberEpoch(), MemberState.of(v.state()),
                            new Assignment(assigned), new Assignment(revoking));
                }
                return new CurrentMember(k.groupId(), k.memberId(), c);
            }
            default:
                throw new IllegalArgumentException("not a consumer group key version: " + keyVersion);
        }
    }

    /** A consumer-protocol member stores no classic metadata: the tagged field is absent and reads as defaults. */
    private static ClassicMetadata classic(ConsumerGroupMemberMetadataValue.ClassicMemberMetadata stored) {
        if (stored == null || stored.sessionTimeoutMs() < 0) {
            return null;
        }
        List<ClassicProtocol> protocols = new ArrayList<>();
        stored.supportedProtocols().forEach(p -> {
            byte[] bytes = new byte[p.metadata().remaining()];
            p.metadata().duplicate().get(bytes);
            protocols.add(new ClassicProtocol(p.name(), bytes));
        });
        return new ClassicMetadata(stored.sessionTimeoutMs(), protocols);
    }

    private static void forEach(Assignment assignment, BiConsumer<UUID, List<Integer>> each) {
        assignment.partitions().forEach((topic, ids) -> each.accept(topic, new ArrayList<>(ids)));
    }
}
