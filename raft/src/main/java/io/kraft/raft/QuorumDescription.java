package io.kraft.raft;

import java.util.List;
import java.util.OptionalInt;

/** What describe-quorum reports: leader, epoch, high watermark, and each member's acknowledged end offset. */
public record QuorumDescription(OptionalInt leaderId, int epoch, long highWatermark, List<Member> members) {

    /** One voter or observer as the leader sees it; {@code lastFetchTimestampMs} is -1 if it never fetched. */
    public record Member(int replicaId, boolean voter, long endOffset, long lastFetchTimestampMs) {
    }

    public QuorumDescription {
        members = List.copyOf(members);
    }
}
