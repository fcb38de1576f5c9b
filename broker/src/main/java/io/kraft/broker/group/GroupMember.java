package io.kraft.broker.group;

import io.kraft.broker.group.GroupApi.JoinResult;
import io.kraft.broker.group.GroupApi.Protocol;
import io.kraft.broker.group.GroupApi.SyncResult;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One member of a classic group, owned by the coordinator thread: its identity and timeouts, the protocols it
 * supports, its assignment, and the JoinGroup / SyncGroup calls it has waiting.
 */
final class GroupMember {
    private final String memberId;
    private final String groupInstanceId;
    private final String clientId;
    private final String clientHost;
    private int rebalanceTimeoutMs;
    private int sessionTimeoutMs;
    private List<Protocol> protocols;
    private byte[] assignment = new byte[0];
    private Consumer<JoinResult> awaitingJoin;
    private Consumer<SyncResult> awaitingSync;
    private long lastHeartbeatMs;
    private boolean isNew;
    private boolean syncPending;
    private CoordinatorTimer.Cancellable sessionTimer;

    GroupMember(String memberId, String groupInstanceId, String clientId, String clientHost, int rebalanceTimeoutMs,
                int sessionTimeoutMs, List<Protocol> protocols) {
        this.memberId = Objects.requireNonNull(memberId, "memberId");
        this.groupInstanceId = groupInstanceId;
        this.clientId = clientId == null ? "" : clientId;
        this.clientHost = clientHost == null ? "" : clientHost;
        this.rebalanceTimeoutMs = rebalanceTimeoutMs;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.protocols = List.copyOf(protocols);
    }

    String memberId() {
        return memberId;
    }

    String groupInstanceId() {
        return groupInstanceId;
    }

    boolean isStatic() {
        return groupInstanceId != null;
    }

    String clientId() {
        return clientId;
    }

    String clientHost() {
        return clientHost;
    }

    int rebalanceTimeoutMs() {
        return rebalanceTimeoutMs;
    }

    int sessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    List<Protocol> protocols() {
        return protocols;
    }

    void update(int newRebalanceTimeoutMs, int newSessionTimeoutMs, List<Protocol> newProtocols) {
        this.rebalanceTimeoutMs = newRebalanceTimeoutMs;
        this.sessionTimeoutMs = newSessionTimeoutMs;
        this.protocols = List.copyOf(newProtocols);
    }

    /** Whether {@code other} names the same protocols, in the same order, with the same metadata bytes. */
    boolean sameProtocols(List<Protocol> other) {
        if (other.size() != protocols.size()) {
            return false;
        }
        for (int i = 0; i < other.size(); i++) {
            Protocol mine = protocols.get(i);
            Protocol theirs = other.get(i);
            if (!mine.name().equals(theirs.name()) || !Arrays.equals(mine.metadata(), theirs.metadata())) {
                return false;
            }
        }
        return true;
    }

    boolean supports(String protocolName) {
        return protocols.stream().anyMatch(p -> p.name().equals(protocolName));
    }

    /** The subscription metadata for {@code protocolName}; empty when the member does not support it. */
    byte[] metadata(String protocolName) {
        for (Protocol protocol : protocols) {
            if (protocol.name().equals(protocolName)) {
                return protocol.metadata();
            }
        }
        return new byte[0];
    }

    /** This member's most preferred protocol among {@code candidates}. */
    String vote(Set<String> candidates) {
        for (Protocol protocol : protocols) {
            if (candidates.contains(protocol.name())) {
                return protocol.name();
            }
        }
        throw new IllegalStateException("member " + memberId + " supports none of " + candidates);
    }

    byte[] assignment() {
        return assignment;
    }

    void assignment(byte[] newAssignment) {
        this.assignment = newAssignment == null ? new byte[0] : newAssignment;
    }

    boolean isAwaitingJoin() {
        return awaitingJoin != null;
    }

    boolean isAwaitingSync() {
        return awaitingSync != null;
    }

    void awaitJoin(Consumer<JoinResult> callback) {
        this.awaitingJoin = callback;
    }

    void awaitSync(Consumer<SyncResult> callback) {
        this.awaitingSync = callback;
    }

    /** Answers the waiting JoinGroup call, if any; true when there was one. */
    boolean completeJoin(JoinResult result) {
        Consumer<JoinResult> callback = awaitingJoin;
        awaitingJoin = null;
        if (callback == null) {
            return false;
        }
        callback.accept(result);
        return true;
    }

    /** Answers the waiting SyncGroup call, if any; true when there was one. */
    boolean completeSync(SyncResult result) {
        Consumer<SyncResult> callback = awaitingSync;
        awaitingSync = null;
        if (callback == null) {
            return false;
        }
        callback.accept(result);
        return true;
    }

    long lastHeartbeatMs() {
        return lastHeartbeatMs;
    }

    void heartbeat(long nowMs) {
        this.lastHeartbeatMs = nowMs;
    }

    boolean isNew() {
        return isNew;
    }

    void isNew(boolean value) {
        this.isNew = value;
    }

    /** Whether the member got its JoinGroup answer for this generation but has not sent SyncGroup yet. */
    boolean isSyncPending() {
        return syncPending;
    }

    void syncPending(boolean value) {
        this.syncPending = value;
    }

    void sessionTimer(CoordinatorTimer.Cancellable timer) {
        cancelSessionTimer();
        this.sessionTimer = timer;
    }

    void cancelSessionTimer() {
        if (sessionTimer != null) {
            sessionTimer.cancel();
            sessionTimer = null;
        }
    }

    @Override
    public String toString() {
        return "GroupMember(" + memberId + (groupInstanceId == null ? "" : ", instance " + groupInstanceId) + ")";
    }
}
