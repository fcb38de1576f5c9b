package io.kraft.raft;

import java.util.List;
import java.util.OptionalInt;

/** What describe-quorum reports: leader, epoch, high watermark, and each member's acknowledged end offset. */
public record QuorumDescription(OptionalInt leaderId, int epoch, long highWatermark, List<Member> members) {

    /**
     * One voter or observer as the leader sees it; {@code lastFetchTimestampMs} is -1 if it never fetched, and
     * {@code lastCaughtUpTimestampMs} (when it last had every entry the leader had) -1 if never; a voter's
     * {@code directoryId} is the one the voter set names (KIP-853), {@link Voter#UNKNOWN_DIRECTORY} if none.
     */
    public record Member(int replicaId, boolean voter, long endOffset, long lastFetchTimestampMs,
                         long lastCaughtUpTimestampMs, java.util.UUID directoryId) {
        /** A member whose log directory is not known (a static voter, or an observer). */
        public Member(int replicaId, boolean voter, long endOffset, long lastFetchTimestampMs,
                      long lastCaughtUpTimestampMs) {
            this(replicaId, voter, endOffset, lastFetchTimestampMs, lastCaughtUpTimestampMs, Voter.UNKNOWN_DIRECTORY);
        }
    }

    public QuorumDescription {
        members = List.copyOf(members);
    }
}
