package io.kraft.raft;

import java.util.EnumSet;
import java.util.Set;

/** The roles a node can hold, with every legal transition between them written down in one place. */
public enum Role {
    /** A voter following a known leader, or waiting for one ("unattached") after an epoch change or its own vote. */
    FOLLOWER,
    /** A voter whose leader went silent, asking a pre-vote (KIP-996) before it disturbs anybody's epoch. */
    PROSPECTIVE,
    /** A voter that won a pre-vote, bumped the epoch, voted for itself and asks for votes. */
    CANDIDATE,
    /** The voter elected for the current epoch: it appends and decides the high watermark. */
    LEADER,
    /** A non-voter that follows the committed log; it never votes or stands for election. */
    OBSERVER;

    /** Whether a node in this role may move to {@code next}. */
    public boolean canTransitionTo(Role next) {
        return legalSuccessors().contains(next);
    }

    private Set<Role> legalSuccessors() {
        return switch (this) {
            // A voter removed from the voter set becomes an observer, and an observer added becomes a follower
            // (KIP-853); a removed leader first resigns and so passes through FOLLOWER.
            case FOLLOWER -> EnumSet.of(FOLLOWER, PROSPECTIVE, OBSERVER);
            case PROSPECTIVE -> EnumSet.of(FOLLOWER, PROSPECTIVE, CANDIDATE, OBSERVER);
            case CANDIDATE -> EnumSet.of(FOLLOWER, PROSPECTIVE, LEADER, OBSERVER);
            case LEADER -> EnumSet.of(FOLLOWER);
            case OBSERVER -> EnumSet.of(OBSERVER, FOLLOWER);
        };
    }
}
