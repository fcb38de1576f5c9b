/** gRPC transport for the Raft core: the RaftService server and client, and proto conversions. */
package io.kraft.raft.grpc;
