/**
 * Process assembly, one class per {@code process.roles} value: {@link io.kraft.server.ControllerNode} (a Raft voter,
 * the quorum controller and the controller's gRPC service on the CONTROLLER listener),
 * {@link io.kraft.server.BrokerNode} (a Raft observer following the metadata log, the broker role, and a gRPC
 * client to the active controller) and {@link io.kraft.server.CombinedNode} (both in one process). The broker role
 * itself is {@link io.kraft.broker.BrokerServer}; this package only builds, connects, starts and stops the parts.
 */
package io.kraft.server;
