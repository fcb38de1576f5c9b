package io.kraft.broker.api.admin;

import io.kraft.raft.QuorumDescription;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Asks the metadata quorum's leader to describe the quorum (for DescribeQuorum, which brokers forward). */
public interface QuorumDescriber {
    /** A broker that cannot reach the quorum: every description fails. */
    QuorumDescriber NONE = new QuorumDescriber() {
        @Override
        public CompletableFuture<QuorumDescription> describe() {
            return CompletableFuture.failedFuture(new IllegalStateException("no metadata quorum to ask"));
        }

        @Override
        public Map<Integer, InetSocketAddress> voters() {
            return Map.of();
        }
    };

    /** The leader's description; fails when there is no leader or it cannot be reached. */
    CompletableFuture<QuorumDescription> describe();

    /** The voters' CONTROLLER endpoints, by node id. */
    Map<Integer, InetSocketAddress> voters();
}
