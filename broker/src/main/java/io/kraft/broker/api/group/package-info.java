/**
 * Handlers of the group coordinator's APIs (FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup,
 * OffsetCommit, TxnOffsetCommit, OffsetFetch, ListGroups, DescribeGroups, DeleteGroups, OffsetDelete): each turns a
 * request of any accepted version into coordinator calls ({@link io.kraft.broker.group}) and their answers into the
 * response at that version.
 */
package io.kraft.broker.api.group;
