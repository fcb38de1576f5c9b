/**
 * {@code kraft-cli quorum}: asks a controller to describe the Raft metadata quorum over the RaftService
 * DescribeQuorum RPC ({@link io.kraft.cli.quorum.QuorumClient}) and prints it the way Apache Kafka's
 * {@code kafka-metadata-quorum.sh describe} does ({@link io.kraft.cli.quorum.QuorumStatusReport},
 * {@link io.kraft.cli.quorum.ReplicationTable}), so scripts written for that tool keep working.
 */
package io.kraft.cli.quorum;
