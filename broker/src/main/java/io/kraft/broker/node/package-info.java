/**
 * Node wiring, one class per {@code process.roles} value: {@link io.kraft.broker.node.ControllerNode} (a Raft voter,
 * the quorum controller and the controller's gRPC service on the CONTROLLER listener),
 * {@link io.kraft.broker.node.BrokerNode} (a Raft observer following the metadata log, the Kafka wire server, and a
 * gRPC client to the active controller) and {@link io.kraft.broker.node.CombinedNode} (both in one process). The
 * broker role itself is {@link io.kraft.broker.node.BrokerServer}, which keeps the broker registered, heartbeating,
 * and at the end runs its controlled shutdown.
 */
package io.kraft.broker.node;
