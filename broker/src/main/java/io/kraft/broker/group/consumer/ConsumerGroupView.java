package io.kraft.broker.group.consumer;

import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A consumer-protocol group as ConsumerGroupDescribe and the CLI show it: epochs, members and their assignments. */
public record ConsumerGroupView(Errors error, String errorMessage, String groupId, String state, int groupEpoch,
                                int assignmentEpoch, String assignorName, List<MemberView> members,
                                Map<UUID, String> topicNames) {

    /**
     * A member: its epoch, subscription, what it owns and what it is heading for (topic names resolved), and whether it
     * speaks the classic protocol (KIP-848's online migration).
     */
    public record MemberView(String memberId, String instanceId, String rackId, int memberEpoch, String clientId,
                             String clientHost, List<String> topicNames, String topicRegex, String memberState,
                             Assignment assigned, Assignment target, boolean classic) {
    }

    public static ConsumerGroupView failed(String groupId, Errors error, String message) {
        return new ConsumerGroupView(error, message, groupId, "Dead", 0, 0, "", List.of(), Map.of());
    }

    /** The view of {@code group}; {@code assignorName} is the assignor its next target would use. */
    public static ConsumerGroupView of(ConsumerGroup group, String assignorName) {
        List<MemberView> members = new ArrayList<>();
        for (ConsumerGroupMember m : group.members()) {
            ConsumerGroupMember.Subscription s = m.subscription();
            members.add(new MemberView(m.memberId(), s.instanceId(), s.rackId(), m.memberEpoch(), s.clientId(),
                    s.clientHost(), s.topicNames(), s.topicRegex(), m.state().label(), m.assigned(),
                    group.target(m.memberId()), m.isClassic()));
        }
        Map<UUID, String> names = new HashMap<>();
        group.subscribedTopics().forEach((id, topic) -> names.put(id, topic.name()));
        return new ConsumerGroupView(Errors.NONE, null, group.groupId(), group.stateName(), group.groupEpoch(),
                group.assignmentEpoch(), assignorName, members, names);
    }
}
