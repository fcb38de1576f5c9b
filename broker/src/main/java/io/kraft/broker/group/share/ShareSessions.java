package io.kraft.broker.group.share;

import io.kraft.storage.errors.Errors;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The share sessions of a partition leader (KIP-932): per (group, member), the partitions its ShareFetch requests
 * cover and the epoch its next request must carry. Epoch 0 opens a session (replacing the member's old one), -1
 * closes it, any other epoch must be the expected one and moves it on. Bounded: a new session past the limit evicts
 * sessions idle longer than the idle timeout, else is refused with SHARE_SESSION_LIMIT_REACHED.
 */
public final class ShareSessions {
    /** A session's partitions, as (topic id, partition). */
    public record Key(String groupId, String memberId) {
    }

    /** One member's session; its methods are called under its own lock. */
    public static final class Session {
        private final Set<SharePartitionKey> partitions = new LinkedHashSet<>();
        private int nextEpoch = 1;
        private long lastUsedMs;

        public synchronized Set<SharePartitionKey> partitions() {
            return new LinkedHashSet<>(partitions);
        }

        synchronized void update(Set<SharePartitionKey> added, Set<SharePartitionKey> forgotten, long nowMs) {
            partitions.addAll(added);
            partitions.removeAll(forgotten);
            lastUsedMs = nowMs;
        }

        /** Checks and moves the epoch on; the error when {@code epoch} is not the expected one. */
        synchronized Errors advance(int epoch, long nowMs) {
            if (epoch != nextEpoch) {
                return Errors.INVALID_SHARE_SESSION_EPOCH;
            }
            nextEpoch = epoch == Integer.MAX_VALUE ? 1 : epoch + 1;
            lastUsedMs = nowMs;
            return Errors.NONE;
        }

        synchronized long lastUsedMs() {
            return lastUsedMs;
        }
    }

    /** The outcome of a request's session step: an error, or the session to serve it with. */
    public record Step(Errors error, Session session) {
    }

    private final Map<Key, Session> sessions = new ConcurrentHashMap<>();
    private final int maxSessions;
    private final long idleTimeoutMs;

    public ShareSessions(int maxSessions, long idleTimeoutMs) {
        this.maxSessions = maxSessions;
        this.idleTimeoutMs = idleTimeoutMs;
    }

    /** Opens a session at epoch 0, replacing the member's previous one. */
    public synchronized Step open(Key key, Set<SharePartitionKey> partitions, long nowMs) {
        if (!sessions.containsKey(key) && sessions.size() >= maxSessions) {
            evictIdle(nowMs);
            if (sessions.size() >= maxSessions) {
                return new Step(Errors.SHARE_SESSION_LIMIT_REACHED, null);
            }
        }
        Session session = new Session();
        session.update(partitions, Set.of(), nowMs);
        sessions.put(key, session);
        return new Step(Errors.NONE, session);
    }

    /** Continues a session at {@code epoch} (positive), with partitions added and forgotten. */
    public Step next(Key key, int epoch, Set<SharePartitionKey> added, Set<SharePartitionKey> forgotten, long nowMs) {
        Session session = sessions.get(key);
        if (session == null) {
            return new Step(Errors.SHARE_SESSION_NOT_FOUND, null);
        }
        Errors error = session.advance(epoch, nowMs);
        if (error != Errors.NONE) {
            return new Step(error, null);
        }
        session.update(added, forgotten, nowMs);
        return new Step(Errors.NONE, session);
    }

    /** Closes the member's session (epoch -1); SHARE_SESSION_NOT_FOUND when it has none. */
    public Step close(Key key) {
        Session session = sessions.remove(key);
        return session == null ? new Step(Errors.SHARE_SESSION_NOT_FOUND, null) : new Step(Errors.NONE, session);
    }

    /** Drops every session of a member that left its group. */
    public void remove(String groupId, String memberId) {
        sessions.remove(new Key(groupId, memberId));
    }

    public int size() {
        return sessions.size();
    }

    private void evictIdle(long nowMs) {
        Iterator<Session> it = sessions.values().iterator();
        while (it.hasNext()) {
            if (nowMs - it.next().lastUsedMs() > idleTimeoutMs) {
                it.remove();
            }
        }
    }
}
