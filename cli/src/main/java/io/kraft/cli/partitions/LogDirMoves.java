package io.kraft.cli.partitions;

import io.kraft.cli.client.ClientFailures;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeReplicaLogDirsResult.ReplicaLogDirInfo;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.errors.ReplicaNotAvailableException;

/**
 * The log directory part of a reassignment plan (its {@code log_dirs}, KIP-113): starting each replica's move with
 * AlterReplicaLogDirs, and reporting where each move stands.
 */
public final class LogDirMoves {
    private static final long RETRY_MS = 100;

    private LogDirMoves() {
    }

    /**
     * Starts the moves. A replica its broker does not host yet (it is being added by the reassignment) is asked again
     * until {@code timeoutMs} passes: its broker then creates it in the wanted directory.
     *
     * @return the replicas that could not be moved, with why
     */
    public static Map<TopicPartitionReplica, String> start(Admin admin, Map<TopicPartitionReplica, String> moves,
                                                           long timeoutMs) throws InterruptedException {
        Map<TopicPartitionReplica, String> pending = new LinkedHashMap<>(moves);
        Map<TopicPartitionReplica, String> failed = new LinkedHashMap<>();
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!pending.isEmpty()) {
            Map<TopicPartitionReplica, String> retry = new LinkedHashMap<>();
            for (Map.Entry<TopicPartitionReplica, org.apache.kafka.common.KafkaFuture<Void>> result
                    : admin.alterReplicaLogDirs(pending).values().entrySet()) {
                try {
                    result.getValue().get();
                } catch (ExecutionException e) {
                    if (ClientFailures.unwrap(e) instanceof ReplicaNotAvailableException
                            && System.currentTimeMillis() < deadline) {
                        retry.put(result.getKey(), pending.get(result.getKey()));
                    } else {
                        failed.put(result.getKey(), ClientFailures.message(e));
                    }
                }
            }
            pending = retry;
            if (!pending.isEmpty()) {
                Thread.sleep(RETRY_MS);
            }
        }
        return failed;
    }

    /**
     * Prints where each replica's move stands.
     *
     * @return how many moves are still in progress
     */
    public static int verify(Admin admin, Map<TopicPartitionReplica, String> moves, PrintWriter out)
            throws InterruptedException {
        int inProgress = 0;
        for (Map.Entry<TopicPartitionReplica, String> move : moves.entrySet()) {
            TopicPartitionReplica replica = move.getKey();
            String where = "partition " + replica.topic() + "-" + replica.partition() + " on broker "
                    + replica.brokerId();
            ReplicaLogDirInfo info;
            try {
                info = admin.describeReplicaLogDirs(List.of(replica)).all().get().get(replica);
            } catch (ExecutionException e) {
                out.println("Cannot tell where " + where + " is: " + ClientFailures.message(e));
                inProgress++;
                continue;
            }
            if (move.getValue().equals(info.getCurrentReplicaLogDir())) {
                out.println("Reassignment of replica " + replica + " completed successfully.");
            } else if (move.getValue().equals(info.getFutureReplicaLogDir())) {
                out.println("Reassignment of replica " + replica + " is still in progress ("
                        + info.getFutureReplicaOffsetLag() + " offsets to copy" + copied(admin, replica, info) + ").");
                inProgress++;
            } else if (info.getCurrentReplicaLogDir() == null) {
                out.println("The replica of " + where + " is in no online log directory of its broker (one may be "
                        + "offline).");
                inProgress++;
            } else {
                out.println("The replica of " + where + " is not moving from " + info.getCurrentReplicaLogDir()
                        + " to " + move.getValue() + ".");
                inProgress++;
            }
        }
        if (!moves.isEmpty()) {
            out.println((moves.size() - inProgress) + " of " + moves.size() + " log directory moves done.");
        }
        return inProgress;
    }

    /** ", B of T bytes copied": the future replica's size of its current one's, from DescribeLogDirs. */
    private static String copied(Admin admin, TopicPartitionReplica replica, ReplicaLogDirInfo info)
            throws InterruptedException {
        TopicPartition partition = new TopicPartition(replica.topic(), replica.partition());
        try {
            Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(replica.brokerId()))
                    .allDescriptions().get().getOrDefault(replica.brokerId(), Map.of());
            LogDirDescription currentDir = dirs.get(info.getCurrentReplicaLogDir());
            LogDirDescription futureDir = dirs.get(info.getFutureReplicaLogDir());
            ReplicaInfo current = currentDir == null ? null : currentDir.replicaInfos().get(partition);
            ReplicaInfo future = futureDir == null ? null : futureDir.replicaInfos().get(partition);
            return current == null || future == null ? ""
                    : ", " + future.size() + " of " + current.size() + " bytes copied";
        } catch (ExecutionException e) {
            return ""; // the sizes are a courtesy: a broker that cannot say them leaves them out
        }
    }
}
