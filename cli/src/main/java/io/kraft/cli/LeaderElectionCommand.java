package io.kraft.cli;

import io.kraft.cli.client.ClientFailures;
import io.kraft.cli.partitions.JsonPlans;
import io.kraft.cli.partitions.PlanException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli leader-election --bootstrap-server HOST:PORT --election-type preferred|unclean
 * (--all-topic-partitions | --topic T --partition P | --path-to-json-file F)}: leader elections through the Kafka Admin
 * client, with the options and output of Kafka's {@code kafka-leader-election.sh}. Partitions whose election was not
 * needed are listed as such; any partition that could not be elected makes it end with one {@code Error:} line and
 * exit 1; contradictory options are one {@code Error:} line and exit 2.
 */
@Command(name = "leader-election", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Elects partition leaders: the preferred replica, or any replica of a leaderless partition "
                + "(like kafka-leader-election.sh).")
final class LeaderElectionCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private AdminConnectionOptions connection;

    @Option(names = "--election-type", paramLabel = "preferred|unclean", description = "The kind of election: "
            + "preferred (the first replica, if in sync) or unclean (any live replica of a leaderless partition).")
    private String electionType;

    @Option(names = "--all-topic-partitions", description = "Elect in every partition that needs an election.")
    private boolean allTopicPartitions;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "The topic of the partition (with --partition).")
    private String topic;

    @Option(names = "--partition", paramLabel = "P", description = "The partition (with --topic).")
    private Integer partition;

    @Option(names = "--path-to-json-file", paramLabel = "FILE",
            description = "The partitions as JSON: {\"partitions\": [{\"topic\": \"t\", \"partition\": 0}]}.")
    private Path jsonFile;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ElectionType type;
        Optional<Set<TopicPartition>> partitions;
        try {
            type = electionType();
            partitions = partitions();
        } catch (PlanException e) {
            err.println("Error: " + e.getMessage());
            err.flush();
            return KraftCli.EXIT_USAGE;
        }
        return AdminConnectionOptions.run(connection.adminProperties(), out, err,
                admin -> elect(admin, type, partitions, out, err));
    }

    private ElectionType electionType() {
        if (electionType == null) {
            throw new PlanException("Missing required option: --election-type (preferred or unclean)");
        }
        return switch (electionType.toLowerCase(java.util.Locale.ROOT)) {
            case "preferred" -> ElectionType.PREFERRED;
            case "unclean" -> ElectionType.UNCLEAN;
            default -> throw new PlanException("--election-type must be preferred or unclean, not " + electionType);
        };
    }

    /** The partitions named, or empty for all. */
    private Optional<Set<TopicPartition>> partitions() {
        int sources = (allTopicPartitions ? 1 : 0) + (topic != null || partition != null ? 1 : 0)
                + (jsonFile != null ? 1 : 0);
        if (sources != 1) {
            throw new PlanException("Exactly one of --all-topic-partitions, --topic with --partition, or "
                    + "--path-to-json-file is needed" + (sources > 1 ? ", not several" : ""));
        }
        if (allTopicPartitions) {
            return Optional.empty();
        }
        if (jsonFile != null) {
            return Optional.of(JsonPlans.electionPartitions(jsonFile));
        }
        if (topic == null || partition == null) {
            throw new PlanException("--topic and --partition go together");
        }
        if (partition < 0) {
            throw new PlanException("--partition must be 0 or more, not " + partition);
        }
        return Optional.of(Set.of(new TopicPartition(topic, partition)));
    }

    private static int elect(Admin admin, ElectionType type, Optional<Set<TopicPartition>> partitions,
                             PrintWriter out, PrintWriter err) throws ExecutionException, InterruptedException {
        Map<TopicPartition, Optional<Throwable>> results = admin.electLeaders(type, partitions.orElse(null))
                .partitions().get();
        List<TopicPartition> succeeded = new ArrayList<>();
        List<TopicPartition> notNeeded = new ArrayList<>();
        List<TopicPartition> failed = new ArrayList<>();
        results.keySet().stream().sorted((a, b) -> a.topic().equals(b.topic())
                ? Integer.compare(a.partition(), b.partition()) : a.topic().compareTo(b.topic())).forEach(tp -> {
                    Optional<Throwable> error = results.get(tp);
                    if (error.isEmpty()) {
                        succeeded.add(tp);
                    } else if (error.get() instanceof ElectionNotNeededException) {
                        notNeeded.add(tp);
                    } else {
                        failed.add(tp);
                    }
                });
        if (!succeeded.isEmpty()) {
            out.println("Successfully completed leader election (" + type + ") for partitions "
                    + JsonPlans.join(succeeded));
        }
        if (!notNeeded.isEmpty()) {
            out.println("Valid replica already elected for partitions " + JsonPlans.join(notNeeded));
        }
        if (failed.isEmpty()) {
            return 0;
        }
        for (TopicPartition tp : failed) {
            out.println("Error completing leader election (" + type + ") for partition: " + tp + ": "
                    + ClientFailures.message(results.get(tp).get()));
        }
        out.flush();
        err.println("Error: " + failed.size() + " replica(s) could not be elected");
        err.flush();
        return KraftCli.EXIT_FAILURE;
    }
}
