/**
 * gRPC transport for the Raft core: the RaftService server and client, and proto conversions; and how the control
 * plane's gRPC is secured ({@link io.kraft.raft.grpc.TransportSecurity}: plaintext, or mutual TLS where each call's
 * peer is authenticated and a message's sender must be that peer).
 */
package io.kraft.raft.grpc;
