package io.kraft.cli;

import io.kraft.cli.groups.TextTable;
import io.kraft.cli.transactions.HangingTransactions;
import io.kraft.cli.transactions.OpenTransaction;
import io.kraft.cli.transactions.TransactionCommandException;
import io.kraft.cli.transactions.TransactionReports;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeProducersOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli transactions --bootstrap-server HOST:PORT list|describe|describe-producers|abort|find-hanging}:
 * transactions through the Kafka Admin client, with the subcommands, options and columns of Kafka's
 * {@code kafka-transactions.sh}. Contradictory options are one {@code Error:} line and exit 2; a failure of the
 * cluster or of the request (no such transactional id, no open transaction at that offset) one {@code Error:} line
 * and exit 1.
 */
@Command(name = "transactions", mixinStandardHelpOptions = true,
        description = "Lists and describes transactions and producers, finds and aborts hanging transactions "
                + "(like kafka-transactions.sh).",
        subcommands = {TransactionsCommand.ListTransactions.class, TransactionsCommand.Describe.class,
                TransactionsCommand.DescribeProducers.class, TransactionsCommand.Abort.class,
                TransactionsCommand.FindHanging.class})
final class TransactionsCommand implements Runnable {
    /** How long one cluster call may take. */
    static final int TIMEOUT_MS = 30_000;

    @Spec
    private CommandSpec spec;

    @Mixin
    private AdminConnectionOptions connection;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "Missing subcommand: list, describe, describe-producers, abort or find-hanging");
    }

    private Map<String, Object> adminProperties() {
        Map<String, Object> properties = connection.adminProperties();
        properties.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
        properties.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
        return properties;
    }

    /** Runs {@code work} with an admin client; a {@link TransactionCommandException} is one line and exit 1. */
    private int run(CommandSpec sub, AdminConnectionOptions.AdminWork work) {
        PrintWriter out = sub.commandLine().getOut();
        PrintWriter err = sub.commandLine().getErr();
        return AdminConnectionOptions.run(adminProperties(), out, err, admin -> {
            try {
                return work.run(admin);
            } catch (TransactionCommandException e) {
                out.flush();
                err.println("Error: " + e.getMessage());
                err.flush();
                return KraftCli.EXIT_FAILURE;
            }
        });
    }

    private static int usageError(CommandSpec sub, String message) {
        PrintWriter err = sub.commandLine().getErr();
        err.println("Error: " + message);
        err.flush();
        return KraftCli.EXIT_USAGE;
    }

    private static void print(TextTable table, PrintWriter out) {
        table.lines().forEach(out::println);
    }

    /** {@code list}: every transactional id the coordinators know, with its producer id and state. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the transactional ids.")
    static final class ListTransactions implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @ParentCommand
        private TransactionsCommand parent;

        @Override
        public Integer call() {
            return parent.run(spec, admin -> {
                print(TransactionReports.listing(admin.listTransactions().allByBrokerId().get()),
                        spec.commandLine().getOut());
                return 0;
            });
        }
    }

    /** {@code describe --transactional-id X}: the id's producer, state, timeout and open transaction. */
    @Command(name = "describe", mixinStandardHelpOptions = true,
            description = "Describes a transactional id: producer, state, timeout and the open transaction.")
    static final class Describe implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @ParentCommand
        private TransactionsCommand parent;

        @Option(names = "--transactional-id", required = true, paramLabel = "ID", description = "The transactional id.")
        private String transactionalId;

        @Override
        public Integer call() {
            return parent.run(spec, admin -> {
                TransactionDescription description;
                try {
                    description = admin.describeTransactions(List.of(transactionalId)).description(transactionalId)
                            .get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TransactionalIdNotFoundException) {
                        throw new TransactionCommandException("transactional id '" + transactionalId
                                + "' does not exist.");
                    }
                    throw e;
                }
                print(TransactionReports.description(transactionalId, description, System.currentTimeMillis()),
                        spec.commandLine().getOut());
                return 0;
            });
        }
    }

    /** {@code describe-producers --topic T --partition P [--broker-id N]}: a partition's producer state. */
    @Command(name = "describe-producers", mixinStandardHelpOptions = true,
            description = "Describes the producers a partition tracks, with their open transactions.")
    static final class DescribeProducers implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @ParentCommand
        private TransactionsCommand parent;

        @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "The topic.")
        private String topic;

        @Option(names = "--partition", required = true, paramLabel = "P", description = "The partition.")
        private int partition;

        @Option(names = "--broker-id", paramLabel = "N",
                description = "Ask this broker's replica instead of the partition's leader.")
        private Integer brokerId;

        @Override
        public Integer call() {
            return parent.run(spec, admin -> {
                DescribeProducersOptions options = new DescribeProducersOptions();
                if (brokerId != null) {
                    options.brokerId(brokerId);
                }
                TopicPartition tp = new TopicPartition(topic, partition);
                List<ProducerState> producers = admin.describeProducers(List.of(tp), options).partitionResult(tp)
                        .get().activeProducers();
                print(TransactionReports.producers(producers), spec.commandLine().getOut());
                return 0;
            });
        }
    }

    /**
     * {@code abort --topic T --partition P (--start-offset O | --producer-id I --producer-epoch E --coordinator-epoch
     * C)}: writes an ABORT marker for a producer's open transaction in one partition (WriteTxnMarkers to its leader).
     */
    @Command(name = "abort", mixinStandardHelpOptions = true,
            description = "Aborts a hanging transaction in one partition, found by its start offset or given by "
                    + "producer id, producer epoch and coordinator epoch.")
    static final class Abort implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @ParentCommand
        private TransactionsCommand parent;

        @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "The topic.")
        private String topic;

        @Option(names = "--partition", required = true, paramLabel = "P", description = "The partition.")
        private int partition;

        @Option(names = "--start-offset", paramLabel = "OFFSET",
                description = "The first offset of the open transaction to abort (its producer is looked up).")
        private Long startOffset;

        @Option(names = "--producer-id", paramLabel = "ID", description = "The producer whose transaction to abort.")
        private Long producerId;

        @Option(names = "--producer-epoch", paramLabel = "EPOCH", description = "That producer's epoch.")
        private Short producerEpoch;

        @Option(names = "--coordinator-epoch", paramLabel = "EPOCH",
                description = "The coordinator epoch of the marker (a negative one counts as 0).")
        private Integer coordinatorEpoch;

        @Override
        public Integer call() {
            boolean byProducer = producerId != null || producerEpoch != null || coordinatorEpoch != null;
            if ((startOffset == null) == !byProducer) {
                return usageError(spec, "abort needs --start-offset, or --producer-id, --producer-epoch and "
                        + "--coordinator-epoch (one way, not both)");
            }
            if (byProducer && (producerId == null || producerEpoch == null || coordinatorEpoch == null)) {
                return usageError(spec, "abort by producer needs all of --producer-id, --producer-epoch and "
                        + "--coordinator-epoch");
            }
            TopicPartition tp = new TopicPartition(topic, partition);
            return parent.run(spec, admin -> {
                AbortTransactionSpec abort = startOffset != null ? byStartOffset(admin, tp)
                        : new AbortTransactionSpec(tp, producerId, producerEpoch, Math.max(0, coordinatorEpoch));
                admin.abortTransaction(abort).all().get();
                return 0;
            });
        }

        private AbortTransactionSpec byStartOffset(Admin admin, TopicPartition tp)
                throws ExecutionException, InterruptedException {
            List<ProducerState> producers = admin.describeProducers(List.of(tp)).partitionResult(tp).get()
                    .activeProducers();
            ProducerState open = producers.stream().filter(p -> p.currentTransactionStartOffset().isPresent()
                            && p.currentTransactionStartOffset().getAsLong() == startOffset)
                    .findFirst().orElseThrow(() -> new TransactionCommandException("no open transaction starts at "
                            + "offset " + startOffset + " of " + tp + "."));
            return new AbortTransactionSpec(tp, open.producerId(), (short) open.producerEpoch(),
                    Math.max(0, open.coordinatorEpoch().orElse(0)));
        }
    }

    /** {@code find-hanging (--broker-id N | --topic T [--partition P]) [--max-transaction-timeout M]}. */
    @Command(name = "find-hanging", mixinStandardHelpOptions = true,
            description = "Finds open transactions the coordinator will never end (hanging transactions).")
    static final class FindHanging implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @ParentCommand
        private TransactionsCommand parent;

        @Option(names = "--broker-id", paramLabel = "N", description = "Search the partitions with a replica here.")
        private Integer brokerId;

        @Option(names = "--topic", paramLabel = "TOPIC", description = "Search this topic's partitions.")
        private String topic;

        @Option(names = "--partition", paramLabel = "P", description = "With --topic: only this partition.")
        private Integer partition;

        @Option(names = "--max-transaction-timeout", paramLabel = "MINUTES", defaultValue = "15",
                description = "The largest transaction timeout in use, in minutes: transactions idle for less are "
                        + "not reported (default: ${DEFAULT-VALUE}).")
        private int maxTransactionTimeoutMinutes;

        @Override
        public Integer call() {
            if (topic == null && brokerId == null) {
                return usageError(spec, "find-hanging needs --topic or --broker-id to limit the search");
            }
            if (partition != null && topic == null) {
                return usageError(spec, "--partition needs --topic");
            }
            if (maxTransactionTimeoutMinutes < 0) {
                return usageError(spec, "--max-transaction-timeout must be 0 or more, not "
                        + maxTransactionTimeoutMinutes);
            }
            return parent.run(spec, admin -> {
                HangingTransactions finder = new HangingTransactions(admin);
                List<TopicPartition> partitions = finder.partitions(topic, partition, brokerId);
                long nowMs = System.currentTimeMillis();
                List<OpenTransaction> hanging = finder.find(partitions, brokerId,
                        TimeUnit.MINUTES.toMillis(maxTransactionTimeoutMinutes), nowMs);
                print(TransactionReports.hanging(hanging, nowMs), spec.commandLine().getOut());
                return 0;
            });
        }
    }
}
