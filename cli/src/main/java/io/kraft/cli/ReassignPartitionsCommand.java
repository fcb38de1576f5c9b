package io.kraft.cli;

import io.kraft.cli.client.ClientFailures;
import io.kraft.cli.partitions.CopyProgress;
import io.kraft.cli.partitions.JsonPlans;
import io.kraft.cli.partitions.LiveBrokers;
import io.kraft.cli.partitions.LogDirMoves;
import io.kraft.cli.partitions.PlanException;
import io.kraft.cli.partitions.ReplicaAssignments;
import io.kraft.cli.partitions.ReplicationThrottles;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli reassign-partitions --bootstrap-server HOST:PORT (--generate | --execute | --verify | --cancel)}:
 * partition reassignments through the Kafka Admin client, with the options, JSON plans and output of Kafka's
 * {@code kafka-reassign-partitions.sh}. {@code --generate} proposes a plan moving the given topics onto the given
 * brokers; {@code --execute} starts a plan, printing the current assignment to roll back to; {@code --verify} reports
 * each partition's progress and, once all are done, removes the replication throttles {@code --execute --throttle}
 * set; {@code --cancel} cancels the plan's running reassignments. Contradictory options are one
 * {@code Error:} line and exit 2; a cluster's refusal is one {@code Error:} line and exit 1.
 */
@Command(name = "reassign-partitions", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Moves partition replicas between brokers and changes replication factors "
                + "(like kafka-reassign-partitions.sh).")
final class ReassignPartitionsCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private AdminConnectionOptions connection;

    @Option(names = "--generate", description = "Propose a plan moving the topics of --topics-to-move-json-file "
            + "onto the brokers of --broker-list; nothing is changed.")
    private boolean generate;

    @Option(names = "--execute", description = "Start the reassignment of --reassignment-json-file.")
    private boolean execute;

    @Option(names = "--verify", description = "Report the progress of the reassignment of --reassignment-json-file.")
    private boolean verify;

    @Option(names = "--cancel", description = "Cancel the running reassignments of --reassignment-json-file.")
    private boolean cancel;

    @Option(names = "--topics-to-move-json-file", paramLabel = "FILE",
            description = "With --generate: {\"version\": 1, \"topics\": [{\"topic\": \"t\"}]}.")
    private Path topicsToMoveFile;

    @Option(names = "--broker-list", paramLabel = "1,2,3", split = ",",
            description = "With --generate: the brokers to place the replicas on.")
    private List<Integer> brokerList = new ArrayList<>();

    @Option(names = "--reassignment-json-file", paramLabel = "FILE", description = "With --execute, --verify or "
            + "--cancel: the plan, {\"version\": 1, \"partitions\": [{\"topic\": \"t\", \"partition\": 0, "
            + "\"replicas\": [1, 2]}]}.")
    private Path reassignmentFile;

    @Option(names = "--additional", description = "With --execute: start even though other reassignments run.")
    private boolean additional;

    @Option(names = "--throttle", paramLabel = "BYTES_PER_SEC", defaultValue = "-1",
            description = "With --execute: limit the copying between brokers to this many bytes/s on every broker "
                    + "the plan touches, for the moving replicas only; --verify removes it once all are done.")
    private long throttle;

    @Option(names = "--replica-alter-log-dirs-throttle", paramLabel = "BYTES_PER_SEC", defaultValue = "-1",
            description = "With --execute: limit the copying between a broker's log directories to this many "
                    + "bytes/s; --verify removes it once all are done.")
    private long alterLogDirsThrottle;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "10000",
            description = "How long --execute waits for a replica's broker to create it before moving it between "
                    + "log directories (default: ${DEFAULT-VALUE}).")
    private long timeoutMs;

    @Option(names = "--preserve-throttles", description = "With --verify: keep the throttles when all is done.")
    private boolean preserveThrottles;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> topics;
        JsonPlans.ReassignmentPlan plan;
        try {
            checkOptions();
            topics = generate ? JsonPlans.topicsToMove(topicsToMoveFile) : List.of();
            plan = generate ? null : JsonPlans.reassignment(reassignmentFile);
        } catch (PlanException e) {
            err.println("Error: " + e.getMessage());
            err.flush();
            return KraftCli.EXIT_USAGE;
        }
        return AdminConnectionOptions.run(connection.adminProperties(), out, err, admin -> {
            try {
                if (generate) {
                    return generate(admin, topics, out);
                } else if (execute) {
                    return execute(admin, plan, out, err);
                } else if (verify) {
                    return verify(admin, plan, preserveThrottles, out);
                }
                return cancel(admin, plan.replicas(), out, err);
            } catch (PlanException e) {
                err.println("Error: " + e.getMessage());
                err.flush();
                return KraftCli.EXIT_FAILURE;
            }
        });
    }

    private void checkOptions() {
        int actions = (generate ? 1 : 0) + (execute ? 1 : 0) + (verify ? 1 : 0) + (cancel ? 1 : 0);
        if (actions != 1) {
            throw new PlanException("Exactly one of --generate, --execute, --verify or --cancel is needed"
                    + (actions > 1 ? ", not " + actions : ""));
        }
        if (generate) {
            if (topicsToMoveFile == null || brokerList.isEmpty()) {
                throw new PlanException("--generate needs --topics-to-move-json-file and --broker-list");
            }
            if (reassignmentFile != null) {
                throw new PlanException("--reassignment-json-file is not valid with --generate");
            }
            if (brokerList.stream().distinct().count() != brokerList.size()) {
                throw new PlanException("--broker-list repeats a broker: " + brokerList);
            }
        } else {
            if (reassignmentFile == null) {
                throw new PlanException("--execute, --verify and --cancel need --reassignment-json-file");
            }
            if (topicsToMoveFile != null || !brokerList.isEmpty()) {
                throw new PlanException("--topics-to-move-json-file and --broker-list are only valid with --generate");
            }
        }
        if (additional && !execute) {
            throw new PlanException("--additional is only valid with --execute");
        }
        if ((throttle >= 0 || alterLogDirsThrottle >= 0) && !execute) {
            throw new PlanException("--throttle and --replica-alter-log-dirs-throttle are only valid with --execute");
        }
        if (preserveThrottles && !verify) {
            throw new PlanException("--preserve-throttles is only valid with --verify");
        }
    }

    private int generate(Admin admin, List<String> topics, PrintWriter out)
            throws ExecutionException, InterruptedException {
        List<Integer> registered = admin.describeCluster().nodes().get().stream().map(Node::id).toList();
        List<Integer> unknown = brokerList.stream().filter(id -> !registered.contains(id)).toList();
        if (!unknown.isEmpty()) {
            throw new PlanException("Unknown broker id(s) in --broker-list: " + unknown);
        }
        Map<TopicPartition, List<Integer>> current = currentAssignment(admin, topics);
        Map<TopicPartition, List<Integer>> proposal = ReplicaAssignments.propose(current, brokerList);
        out.println("Current partition replica assignment");
        out.println(JsonPlans.reassignmentJson(current));
        out.println();
        out.println("Proposed partition reassignment configuration");
        out.println(JsonPlans.reassignmentJson(proposal));
        return 0;
    }

    /** Each partition's replicas, sorted by topic and partition; a topic that does not exist is a PlanException. */
    private static Map<TopicPartition, List<Integer>> currentAssignment(Admin admin, Collection<String> topics)
            throws InterruptedException {
        Map<String, KafkaFuture<TopicDescription>> descriptions =
                admin.describeTopics(List.copyOf(new TreeSet<>(topics))).topicNameValues();
        Map<TopicPartition, List<Integer>> current = new LinkedHashMap<>();
        for (String topic : new TreeSet<>(topics)) {
            TopicDescription description;
            try {
                description = descriptions.get(topic).get();
            } catch (ExecutionException e) {
                throw new PlanException(ClientFailures.unwrap(e) instanceof UnknownTopicOrPartitionException
                        ? "Topic " + topic + " does not exist" : ClientFailures.message(e));
            }
            for (TopicPartitionInfo partition : description.partitions()) {
                current.put(new TopicPartition(topic, partition.partition()),
                        partition.replicas().stream().map(Node::id).toList());
            }
        }
        return current;
    }

    /** The current replicas of the plan's partitions, in the plan's order; a missing partition is a PlanException. */
    private static Map<TopicPartition, List<Integer>> currentOf(Admin admin, Map<TopicPartition, List<Integer>> plan)
            throws InterruptedException {
        Map<TopicPartition, List<Integer>> all = currentAssignment(admin,
                plan.keySet().stream().map(TopicPartition::topic).toList());
        Map<TopicPartition, List<Integer>> current = new LinkedHashMap<>();
        for (TopicPartition partition : plan.keySet()) {
            List<Integer> replicas = all.get(partition);
            if (replicas == null) {
                throw new PlanException("Partition " + partition + " does not exist");
            }
            current.put(partition, replicas);
        }
        return current;
    }

    private int execute(Admin admin, JsonPlans.ReassignmentPlan reassignment, PrintWriter out, PrintWriter err)
            throws ExecutionException, InterruptedException {
        Map<TopicPartition, List<Integer>> plan = reassignment.replicas();
        Map<TopicPartition, List<Integer>> current = currentOf(admin, plan);
        Map<TopicPartitionReplica, String> currentDirs = currentLogDirs(admin, current);
        if (!additional && !admin.listPartitionReassignments().reassignments().get().isEmpty()) {
            throw new PlanException("Cannot execute because there is an existing partition assignment. Use "
                    + "--additional to override this and create a new partition assignment in addition to the "
                    + "existing one.");
        }
        out.println("Current partition replica assignment");
        out.println();
        out.println(JsonPlans.reassignmentJson(current, currentDirs));
        out.println();
        out.println("Save this to use as the --reassignment-json-file option during rollback");
        if (throttle >= 0) {
            ReplicationThrottles.set(admin, current, plan, throttle);
            out.println("Warning: You must run --verify periodically, until the reassignment completes, to ensure the "
                    + "throttle is removed.");
            out.println("The inter-broker throttle limit was set to " + throttle + " B/s");
        }
        if (alterLogDirsThrottle >= 0) {
            ReplicationThrottles.setAlterLogDirs(admin, ReplicationThrottles.brokers(current, plan).isEmpty()
                    ? LiveBrokers.of(admin) : ReplicationThrottles.brokers(current, plan), alterLogDirsThrottle);
            out.println("The replica-alter-dir throttle limit was set to " + alterLogDirsThrottle + " B/s");
        }
        Map<TopicPartition, Optional<NewPartitionReassignment>> targets = JsonPlans.targets(plan);
        int result = alter(admin, targets, "Successfully started partition reassignment", " for ", "reassigning", out,
                err);
        Map<TopicPartitionReplica, String> dirMoves = new LinkedHashMap<>(reassignment.logDirs());
        dirMoves.entrySet().removeIf(move -> move.getValue().equals(currentDirs.get(move.getKey())));
        if (result != 0 || dirMoves.isEmpty()) {
            return result;
        }
        if (alterLogDirsThrottle >= 0) {
            // The rate reaches brokers through the metadata log: a move asked for before it arrives runs unthrottled.
            Set<Integer> copying = new TreeSet<>(LiveBrokers.of(admin));
            copying.retainAll(dirMoves.keySet().stream().map(TopicPartitionReplica::brokerId).toList());
            Set<Integer> lagging = ReplicationThrottles.awaitAlterLogDirs(admin, copying, alterLogDirsThrottle,
                    timeoutMs);
            if (!lagging.isEmpty()) {
                err.println("Error: broker(s) " + lagging + " did not apply the replica-alter-dir throttle within "
                        + timeoutMs + " ms; no replica was moved between log directories");
                err.flush();
                return KraftCli.EXIT_FAILURE;
            }
        }
        Map<TopicPartitionReplica, String> failed = LogDirMoves.start(admin, dirMoves, timeoutMs);
        if (failed.isEmpty()) {
            out.println("Successfully started log directory move" + (dirMoves.size() == 1 ? "" : "s") + " for: "
                    + String.join(",", dirMoves.keySet().stream().map(TopicPartitionReplica::toString).toList()));
            return 0;
        }
        out.println("Error moving replica(s) between log directories:");
        failed.forEach((replica, message) -> out.println(replica + ": " + message));
        out.flush();
        err.println("Error: " + failed.size() + " replica(s) could not be moved between log directories");
        err.flush();
        return KraftCli.EXIT_FAILURE;
    }

    /** The log directory of each current replica that its broker, if up, reports (DescribeLogDirs). */
    private static Map<TopicPartitionReplica, String> currentLogDirs(Admin admin,
                                                                     Map<TopicPartition, List<Integer>> current)
            throws InterruptedException {
        // Only replicas on brokers that are up: the Admin client would wait its whole timeout for one that is not.
        Set<Integer> live = LiveBrokers.of(admin);
        List<TopicPartitionReplica> replicas = new ArrayList<>();
        current.forEach((partition, brokers) -> brokers.stream().filter(live::contains).forEach(broker ->
                replicas.add(new TopicPartitionReplica(partition.topic(), partition.partition(), broker))));
        Map<TopicPartitionReplica, String> dirs = new LinkedHashMap<>();
        admin.describeReplicaLogDirs(replicas).values().forEach((replica, future) -> {
            try {
                String dir = future.get().getCurrentReplicaLogDir();
                if (dir != null) {
                    dirs.put(replica, dir);
                }
            } catch (ExecutionException e) {
                // A broker that cannot be asked: its replicas' directories stay "any".
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return dirs;
    }

    /** Sends the changes; prints the partitions done, or those refused with why, ending with exit 1. */
    private static int alter(Admin admin, Map<TopicPartition, Optional<NewPartitionReassignment>> changes,
                             String done, String doneSeparator, String doing, PrintWriter out, PrintWriter err)
            throws InterruptedException {
        Map<TopicPartition, String> errors = new LinkedHashMap<>();
        admin.alterPartitionReassignments(changes).values().forEach((partition, future) -> {
            try {
                future.get();
            } catch (ExecutionException e) {
                errors.put(partition, ClientFailures.message(e));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                errors.put(partition, "interrupted");
            }
        });
        if (errors.isEmpty()) {
            out.println(done + (changes.size() == 1 ? "" : "s") + doneSeparator + String.join(",",
                    changes.keySet().stream().map(TopicPartition::toString).toList()));
            return 0;
        }
        out.println("Error " + doing + " partition(s):");
        errors.forEach((partition, message) -> out.println(partition + ": " + message));
        out.flush();
        err.println("Error: " + errors.size() + " partition(s) could not be changed");
        err.flush();
        return KraftCli.EXIT_FAILURE;
    }

    private static int verify(Admin admin, JsonPlans.ReassignmentPlan reassignment, boolean preserveThrottles,
                              PrintWriter out) throws ExecutionException, InterruptedException {
        Map<TopicPartition, List<Integer>> plan = reassignment.replicas();
        Map<TopicPartition, PartitionReassignment> ongoing = admin.listPartitionReassignments(plan.keySet())
                .reassignments().get();
        Map<TopicPartition, List<Integer>> current = currentOf(admin, plan);
        out.println("Status of partition reassignment:");
        plan.forEach((partition, target) -> {
            PartitionReassignment running = ongoing.get(partition);
            if (running != null) {
                out.println("Reassignment of partition " + partition + " is still in progress (adding "
                        + running.addingReplicas() + ", removing " + running.removingReplicas() + ").");
            } else if (current.get(partition).equals(target)) {
                out.println("Reassignment of partition " + partition + " is completed.");
            } else {
                out.println("There is no active reassignment of partition " + partition + ", but replica set is "
                        + current.get(partition) + " rather than " + target + ".");
            }
        });
        Map<TopicPartition, PartitionReassignment> moving = new LinkedHashMap<>(ongoing);
        moving.keySet().retainAll(plan.keySet());
        int dirMovesInProgress = 0;
        if (!reassignment.logDirs().isEmpty()) {
            out.println();
            out.println("Status of replica log directory moves:");
            dirMovesInProgress = LogDirMoves.verify(admin, reassignment.logDirs(), out);
        }
        if (moving.isEmpty() && dirMovesInProgress > 0) {
            out.println(dirMovesInProgress + " of " + reassignment.logDirs().size()
                    + " log directory moves are not done yet.");
        } else if (moving.isEmpty()) {
            out.println(plan.size() + " of " + plan.size() + " partitions done.");
            if (!preserveThrottles) {
                // As Kafka's tool: every broker's rates, and the plan's topics' replica lists, once all is done.
                Set<Integer> brokers = new TreeSet<>(admin.describeCluster().nodes().get().stream().map(Node::id)
                        .toList());
                Set<String> topics = new TreeSet<>(plan.keySet().stream().map(TopicPartition::topic).toList());
                ReplicationThrottles.clear(admin, brokers, topics);
                out.println("Clearing broker-level throttles on broker" + (brokers.size() == 1 ? " " : "s ")
                        + String.join(",", brokers.stream().map(String::valueOf).toList()));
                out.println("Clearing topic-level throttles on topic" + (topics.size() == 1 ? " " : "s ")
                        + String.join(",", topics));
            }
        } else {
            CopyProgress progress = CopyProgress.of(admin, moving);
            out.println((plan.size() - moving.size()) + " of " + plan.size() + " partitions done; "
                    + progress.copiedBytes() + " of " + progress.totalBytes() + " bytes copied to the new replicas.");
        }
        return 0;
    }

    private static int cancel(Admin admin, Map<TopicPartition, List<Integer>> plan, PrintWriter out,
                              PrintWriter err) throws ExecutionException, InterruptedException {
        Map<TopicPartition, PartitionReassignment> ongoing = admin.listPartitionReassignments(plan.keySet())
                .reassignments().get();
        Map<TopicPartition, Optional<NewPartitionReassignment>> cancels = new LinkedHashMap<>();
        plan.keySet().stream().filter(ongoing::containsKey).forEach(partition -> cancels.put(partition,
                Optional.empty()));
        if (cancels.isEmpty()) {
            out.println("None of the specified partition reassignments are active.");
            return 0;
        }
        return alter(admin, cancels, "Successfully cancelled partition reassignment", " for: ", "cancelling", out,
                err);
    }
}
