package io.kraft.broker.group;

import java.util.HashMap;
import java.util.Map;

/** One kind of per-member deadline (a session, a revocation) of consumer-protocol groups, by group and member id. */
final class MemberTimers {
    private final CoordinatorTimer timer;
    private final Map<String, Map<String, CoordinatorTimer.Cancellable>> byGroup = new HashMap<>();

    MemberTimers(CoordinatorTimer timer) {
        this.timer = timer;
    }

    /** Replaces the member's deadline with {@code task} in {@code delayMs}. */
    void schedule(String groupId, String memberId, long delayMs, Runnable task) {
        cancel(groupId, memberId);
        byGroup.computeIfAbsent(groupId, id -> new HashMap<>()).put(memberId, timer.schedule(delayMs, () -> {
            forget(groupId, memberId);
            task.run();
        }));
    }

    void cancel(String groupId, String memberId) {
        Map<String, CoordinatorTimer.Cancellable> members = byGroup.get(groupId);
        if (members != null) {
            CoordinatorTimer.Cancellable deadline = members.remove(memberId);
            if (deadline != null) {
                deadline.cancel();
            }
            if (members.isEmpty()) {
                byGroup.remove(groupId);
            }
        }
    }

    boolean has(String groupId, String memberId) {
        Map<String, CoordinatorTimer.Cancellable> members = byGroup.get(groupId);
        return members != null && members.containsKey(memberId);
    }

    void cancelAll(String groupId) {
        Map<String, CoordinatorTimer.Cancellable> members = byGroup.remove(groupId);
        if (members != null) {
            members.values().forEach(CoordinatorTimer.Cancellable::cancel);
        }
    }

    private void forget(String groupId, String memberId) {
        Map<String, CoordinatorTimer.Cancellable> members = byGroup.get(groupId);
        if (members != null) {
            members.remove(memberId);
            if (members.isEmpty()) {
                byGroup.remove(groupId);
            }
        }
    }
}
