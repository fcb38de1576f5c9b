package io.kraft.raft;

import java.util.HashSet;
import java.util.Set;

/** Counts grants and rejections from distinct voters in one (pre-)vote round. */
final class VoteTally {
    private final int majority;
    private final int voterCount;
    private final Set<Integer> granted = new HashSet<>();
    private final Set<Integer> rejected = new HashSet<>();

    VoteTally(int voterCount, int majority) {
        this.voterCount = voterCount;
        this.majority = majority;
    }

    void record(int voterId, boolean grant) {
        if (grant) {
            rejected.remove(voterId);
            granted.add(voterId);
        } else if (!granted.contains(voterId)) {
            rejected.add(voterId);
        }
    }

    boolean won() {
        return granted.size() >= majority;
    }

    /** A majority can no longer be reached in this round. */
    boolean lost() {
        return voterCount - rejected.size() < majority;
    }

    boolean hasAnswered(int voterId) {
        return granted.contains(voterId) || rejected.contains(voterId);
    }
}
