package io.kraft.cli.partitions;

import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;

/** The brokers the cluster lists as up (DescribeCluster), the only ones worth asking about their log directories. */
public final class LiveBrokers {
    private LiveBrokers() {
    }

    public static Set<Integer> of(Admin admin) throws InterruptedException {
        try {
            return admin.describeCluster().nodes().get().stream().map(Node::id).collect(Collectors.toSet());
        } catch (ExecutionException e) {
            return Set.of();
        }
    }
}
