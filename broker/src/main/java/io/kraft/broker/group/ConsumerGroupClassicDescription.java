package io.kraft.broker.group;

import io.kraft.broker.group.GroupApi.DescribedGroup;
import io.kraft.broker.group.GroupApi.DescribedMember;
import io.kraft.broker.group.consumer.ConsumerGroup;
import io.kraft.broker.group.consumer.ConsumerGroupMember;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;

/**
 * A consumer-protocol group (KIP-848) as the classic DescribeGroups answers it, as Kafka does for older admin tools:
 * the group's state name, protocol type {@code consumer}, the assignor as the protocol, and every member with its
 * client id and host, its current partitions as a classic assignment and, as metadata, a classic member's own
 * JoinGroup subscription or a consumer-protocol member's subscribed topic names.
 */
final class ConsumerGroupClassicDescription {
    private ConsumerGroupClassicDescription() {
    }

    static DescribedGroup of(ClassicGroup holder, String assignorName) {
        ConsumerGroup group = holder.consumerGroup();
        List<DescribedMember> members = new ArrayList<>();
        for (ConsumerGroupMember member : group.members()) {
            ConsumerGroupMember.Subscription subscription = member.subscription();
            byte[] metadata = member.isClassic() ? subscription.classic().protocols().get(0).metadata()
                    : ConsumerProtocol.subscription(subscription.topicNames());
            members.add(new DescribedMember(member.memberId(), subscription.instanceId(), subscription.clientId(),
                    subscription.clientHost(), metadata,
                    ConsumerProtocol.assignment(ConsumerGroupDowngrade.byName(member.assigned(), group))));
        }
        return new DescribedGroup(Errors.NONE, holder.groupId(), holder.state(), group.stateName(),
                ConsumerProtocol.PROTOCOL_TYPE, assignorName, members);
    }
}
