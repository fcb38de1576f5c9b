package io.kraft.raft;

/** The parts of one node, each deciding one thing, as the role steps reach them. */
record NodeParts(NodeContext node, Transitions roles, Election election, LeaderReplication leading,
                 FollowerReplication following, SnapshotTransfer snapshots, ObserverDiscovery discovery) {
}
