package io.kraft.raft;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RoleTest {
    @Test
    void votersElectThroughPreVoteOnly() {
        assertTrue(Role.FOLLOWER.canTransitionTo(Role.PROSPECTIVE));
        assertFalse(Role.FOLLOWER.canTransitionTo(Role.CANDIDATE), "no candidacy without a pre-vote");
        assertTrue(Role.PROSPECTIVE.canTransitionTo(Role.CANDIDATE));
        assertTrue(Role.CANDIDATE.canTransitionTo(Role.LEADER));
        assertFalse(Role.PROSPECTIVE.canTransitionTo(Role.LEADER));
    }

    @Test
    void leaderOnlyStepsDownToFollower() {
        assertTrue(Role.LEADER.canTransitionTo(Role.FOLLOWER));
        for (Role other : new Role[] {Role.LEADER, Role.PROSPECTIVE, Role.CANDIDATE, Role.OBSERVER}) {
            assertFalse(Role.LEADER.canTransitionTo(other), "leader -> " + other);
        }
    }

    @Test
    void membershipChangesMoveBetweenObserverAndFollowerOnly() {
        assertTrue(Role.OBSERVER.canTransitionTo(Role.FOLLOWER), "an observer added to the voter set follows");
        for (Role role : new Role[] {Role.PROSPECTIVE, Role.CANDIDATE, Role.LEADER}) {
            assertFalse(Role.OBSERVER.canTransitionTo(role), "observer -> " + role);
        }
        for (Role role : new Role[] {Role.FOLLOWER, Role.PROSPECTIVE, Role.CANDIDATE}) {
            assertTrue(role.canTransitionTo(Role.OBSERVER), role + " -> observer when removed from the voter set");
        }
    }
}
