/**
 * The controller's gRPC control plane ({@code controller.proto}): {@link io.kraft.server.grpc.ControllerGrpcService}
 * maps each RPC onto the {@link io.kraft.metadata.controller.QuorumController} and its answer back, and
 * {@link io.kraft.server.grpc.GrpcControllerClient} is the broker's side: a
 * {@link io.kraft.metadata.controller.Controller} that finds the active controller among the voters (following the
 * {@code active_controller_id} a NOT_CONTROLLER answer carries) and retries across a failover.
 *
 * <p><b>Heartbeats are one long-lived bidirectional stream per broker</b>, not unary calls. When a broker process
 * dies its socket closes at once, the stream ends, and the service reports
 * {@link io.kraft.metadata.controller.QuorumController#connectionClosed}; the controller fences the broker if it
 * does not reconnect within {@code broker.connection.loss.grace.ms}. This is how leadership moves off a killed
 * broker in about a second instead of after the 9 s session timeout. A paused or partitioned broker keeps its
 * stream open (no FIN arrives), so it still falls to the session timeout.
 *
 * <p><b>Security</b> is {@link io.kraft.server.grpc.ControlPlaneSecurity}'s: plaintext unless the controller listener
 * is SSL, then mutual TLS ({@link io.kraft.server.grpc.ControlPlaneTls}) with peers named by their certificates
 * ({@link io.kraft.server.grpc.ControlPlanePrincipals}).
 */
package io.kraft.server.grpc;
