package io.kraft.server.grpc;

import io.kraft.proto.controller.AlterPartitionRequest;
import io.kraft.proto.controller.CreatableTopic;
import io.kraft.proto.controller.RegisterBrokerRequest;

/**
 * The bounds a controller RPC must meet before the controller sees it: ids, epochs and partition numbers no broker
 * sends (negative), and sizes beyond any real request (entries per request, listeners, replicas, configs), so a
 * hostile or broken caller cannot make the controller build unbounded state. A value out of bounds throws
 * {@link IllegalArgumentException}, answered as INVALID_REQUEST; whether a broker id is registered and its epoch
 * current is the controller's own check.
 */
final class ControllerRequestChecks {
    /** Topics, names or config resources in one request (Kafka's admin tools send far fewer). */
    static final int MAX_ENTRIES_PER_REQUEST = 10_000;
    static final int MAX_LISTENERS = 64;
    static final int MAX_REPLICAS = Short.MAX_VALUE;
    static final int MAX_CONFIGS_PER_ENTRY = 1_000;
    static final int MAX_ASSIGNED_PARTITIONS = 10_000;

    private ControllerRequestChecks() {
    }

    static void registerBroker(RegisterBrokerRequest r) {
        nonNegative("broker id", r.getBrokerId());
        atMost("listeners", r.getListenersCount(), MAX_LISTENERS);
    }

    static void brokerIdAndEpoch(int brokerId, long brokerEpoch) {
        nonNegative("broker id", brokerId);
        if (brokerEpoch < -1) {
            throw new IllegalArgumentException("broker epoch " + brokerEpoch + " is below -1");
        }
    }

    static void alterPartition(AlterPartitionRequest r) {
        brokerIdAndEpoch(r.getBrokerId(), r.getBrokerEpoch());
        nonNegative("partition id", r.getPartitionId());
        nonNegative("leader epoch", r.getLeaderEpoch());
        nonNegative("partition epoch", r.getPartitionEpoch());
        atMost("ISR entries", r.getNewIsrCount(), MAX_REPLICAS);
        for (int id : r.getNewIsrList()) {
            nonNegative("ISR broker id", id);
        }
        if (r.getNewIsrBrokerEpochsCount() != 0 && r.getNewIsrBrokerEpochsCount() != r.getNewIsrCount()) {
            throw new IllegalArgumentException(r.getNewIsrBrokerEpochsCount() + " ISR broker epochs for "
                    + r.getNewIsrCount() + " ISR entries");
        }
        for (long epoch : r.getNewIsrBrokerEpochsList()) {
            if (epoch < -1) {
                throw new IllegalArgumentException("ISR broker epoch " + epoch + " is below -1");
            }
        }
    }

    static void creatableTopic(CreatableTopic t) {
        atMost("assigned partitions", t.getAssignmentsCount(), MAX_ASSIGNED_PARTITIONS);
        atMost("configs", t.getConfigsCount(), MAX_CONFIGS_PER_ENTRY);
        t.getAssignmentsMap().forEach((partition, replicas) -> {
            nonNegative("partition id", partition);
            atMost("replicas of partition " + partition, replicas.getBrokerIdsCount(), MAX_REPLICAS);
        });
    }

    /** Null if {@code count} entries are within {@link #MAX_ENTRIES_PER_REQUEST}, else why not. */
    static String entries(String what, int count) {
        return count > MAX_ENTRIES_PER_REQUEST ? count + " " + what + " in one request, over "
                + MAX_ENTRIES_PER_REQUEST : null;
    }

    private static void nonNegative(String what, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " " + value + " is negative");
        }
    }

    static void atMost(String what, int count, int max) {
        if (count > max) {
            throw new IllegalArgumentException(count + " " + what + ", over " + max);
        }
    }
}
