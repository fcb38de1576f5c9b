package io.kraft.raft.grpc;

import io.kraft.proto.raft.BeginQuorumEpochRequest;
import io.kraft.proto.raft.EndQuorumEpochRequest;
import io.kraft.proto.raft.FetchRequest;
import io.kraft.proto.raft.FetchSnapshotRequest;
import io.kraft.proto.raft.VoteRequest;
import java.util.Set;

/**
 * The bounds a Raft request from the network must meet before it reaches the core: node ids, epochs, offsets and
 * sizes that no correct member sends (negative, this node itself, or the wrong kind of sender) are refused here with a reason, so the
 * core only ever reasons about values it could have produced itself. Vote and quorum-epoch requests come from
 * voters only; fetches from any member with a node id.
 */
final class RaftRequestChecks {
    /** The most preferred successors a resigning leader can name: the other voters, with room for reconfiguration. */
    private static final int MAX_PREFERRED_SUCCESSORS = 64;

    private final int nodeId;
    /** Null once voters may change (KIP-853): the core then judges candidates and leaders against its own set. */
    private volatile Set<Integer> voterIds;

    RaftRequestChecks(int nodeId, Set<Integer> voterIds) {
        this.nodeId = nodeId;
        this.voterIds = Set.copyOf(voterIds);
    }

    /** Why the request is refused, or null. */
    String vote(VoteRequest r) {
        return first(notSelf("candidate", r.getCandidateId()), voter("candidate", r.getCandidateId()),
                epoch(r.getCandidateEpoch()), offset("last offset", r.getLastOffset()),
                nonNegative("last offset epoch", r.getLastOffsetEpoch()));
    }

    String beginQuorumEpoch(BeginQuorumEpochRequest r) {
        return first(notSelf("leader", r.getLeaderId()), voter("leader", r.getLeaderId()), epoch(r.getLeaderEpoch()));
    }

    String endQuorumEpoch(EndQuorumEpochRequest r) {
        String problem = first(notSelf("leader", r.getLeaderId()), voter("leader", r.getLeaderId()),
                epoch(r.getLeaderEpoch()));
        if (problem == null && r.getPreferredSuccessorsCount() > MAX_PREFERRED_SUCCESSORS) {
            problem = r.getPreferredSuccessorsCount() + " preferred successors";
        }
        return problem;
    }

    String fetch(FetchRequest r) {
        return first(notSelf("replica", r.getReplicaId()), nonNegative("replica id", r.getReplicaId()),
                epoch(r.getEpoch()), offset("fetch offset", r.getFetchOffset()),
                nonNegative("last fetched epoch", r.getLastFetchedEpoch()));
    }

    String fetchSnapshot(FetchSnapshotRequest r) {
        return first(notSelf("replica", r.getReplicaId()), nonNegative("replica id", r.getReplicaId()),
                epoch(r.getEpoch()), offset("position", r.getPosition()), nonNegative("max bytes", r.getMaxBytes()));
    }

    /** A node never sends itself a request over the network: one claiming to is forged. */
    private String notSelf(String role, int id) {
        return id == nodeId ? role + " " + id + " is this node" : null;
    }

    private String voter(String role, int id) {
        Set<Integer> voters = voterIds;
        return voters == null || voters.contains(id) ? null : role + " " + id + " is not a voter " + voters;
    }

    /**
     * The voters may change (kraft.version 1): a candidate or leader this node's set does not know yet may be one
     * a newer set added, so only the core, which knows which set is in force, judges them.
     */
    void votersMayChange() {
        voterIds = null;
    }

    private static String epoch(int epoch) {
        return nonNegative("epoch", epoch);
    }

    private static String offset(String what, long offset) {
        return offset < 0 ? what + " " + offset + " is negative" : null;
    }

    private static String nonNegative(String what, long value) {
        return value < 0 ? what + " " + value + " is negative" : null;
    }

    private static String first(String... problems) {
        for (String problem : problems) {
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }
}
