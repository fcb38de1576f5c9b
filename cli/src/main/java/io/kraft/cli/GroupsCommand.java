package io.kraft.cli;

import io.kraft.cli.client.ClientFailures;
import io.kraft.cli.groups.ConsumerGroupAdmin;
import io.kraft.cli.groups.GroupCommandException;
import io.kraft.cli.groups.GroupOptionsException;
import io.kraft.cli.groups.GroupReports;
import io.kraft.cli.groups.OffsetResetStrategy;
import io.kraft.cli.groups.PartitionLag;
import io.kraft.cli.groups.ResetDatetime;
import io.kraft.cli.groups.TextTable;
import io.kraft.cli.groups.TopicSelection;
import java.io.PrintWriter;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli groups --bootstrap-server HOST:PORT (--list|--describe|--reset-offsets|--delete)}: consumer-group
 * administration through the Kafka Admin client, with the options and columns of Kafka's
 * {@code kafka-consumer-groups.sh}. Contradictory options are one {@code Error:} line and exit 2; a failure of
 * the cluster or of the group (no such group, group not empty) is one {@code Error:} line and exit 1.
 */
@Command(name = "groups", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Lists, describes, resets the offsets of, and deletes consumer groups "
                + "(like kafka-consumer-groups.sh).")
final class GroupsCommand implements Callable<Integer> {
    /** How long one cluster call may take unless --timeout says otherwise. */
    static final long DEFAULT_TIMEOUT_MS = 30_000;

    @Spec
    private CommandSpec spec;

    @Mixin
    private AdminConnectionOptions connection;

    @Option(names = "--list", description = "List the consumer groups.")
    private boolean list;

    @Option(names = "--describe", description = "Describe groups: offsets and lag (default), --members or --state.")
    private boolean describe;

    @Option(names = "--reset-offsets", description = "Move a group's committed offsets (the group must be inactive).")
    private boolean resetOffsets;

    @Option(names = "--delete", description = "Delete groups with no active members, with their offsets.")
    private boolean delete;

    @Option(names = "--group", paramLabel = "GROUP", description = "A group to act on; repeat for more.")
    private List<String> groups = new ArrayList<>();

    @Option(names = "--all-groups", description = "With --describe, --reset-offsets or --delete: every group.")
    private boolean allGroups;

    @Option(names = "--offsets", description = "With --describe: offsets and lag per partition (the default view).")
    private boolean offsets;

    @Option(names = "--members", description = "With --describe: the members and their partition counts.")
    private boolean members;

    @Option(names = "--verbose", description = "With --describe --members: each member's partitions too.")
    private boolean verbose;

    @Option(names = "--state", arity = "0..1", fallbackValue = "", paramLabel = "STATES",
            description = "With --describe: the group's coordinator, assignor, state and member count. "
                    + "With --list: a STATE column, and only groups in the given comma-separated states if any.")
    private String state;

    @Option(names = "--topic", paramLabel = "TOPIC[:P,P...]",
            description = "With --reset-offsets: a topic (all its partitions) or some of its partitions; repeat for more.")
    private List<String> topics = new ArrayList<>();

    @Option(names = "--all-topics", description = "With --reset-offsets: every partition the group has offsets on.")
    private boolean allTopics;

    @Option(names = "--to-earliest", description = "Reset to the log start offset.")
    private boolean toEarliest;

    @Option(names = "--to-latest", description = "Reset to the log end offset.")
    private boolean toLatest;

    @Option(names = "--to-offset", paramLabel = "N", description = "Reset to offset N (within the log's bounds).")
    private Long toOffset;

    @Option(names = "--to-datetime", paramLabel = "DATETIME",
            description = "Reset to the first record at or after the time: " + ResetDatetime.FORMAT + ".")
    private String toDatetime;

    @Option(names = "--shift-by", paramLabel = "N",
            description = "Move the committed offset by N (negative: back), within the log's bounds.")
    private Long shiftBy;

    @Option(names = "--dry-run", description = "Print the new offsets without committing them (the default).")
    private boolean dryRun;

    @Option(names = "--execute", description = "Commit the new offsets.")
    private boolean execute;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "" + DEFAULT_TIMEOUT_MS,
            description = "How long each call to the cluster may take, in milliseconds (default: ${DEFAULT-VALUE}).")
    private long timeoutMs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Set<GroupState> listStates;
        OffsetResetStrategy strategy;
        List<TopicSelection> selections;
        try {
            checkOptions();
            listStates = list && state != null ? states(state) : Set.of();
            strategy = resetOffsets ? strategy() : null;
            selections = topics.stream().map(TopicSelection::parse).toList();
        } catch (GroupOptionsException e) {
            err.println("Error: " + e.getMessage());
            err.flush();
            return KraftCli.EXIT_USAGE;
        }
        return AdminConnectionOptions.run(adminProperties(), out, err, admin -> {
            ConsumerGroupAdmin cluster = new ConsumerGroupAdmin(admin);
            int exitCode;
            if (list) {
                exitCode = list(cluster, listStates, out);
            } else if (describe) {
                exitCode = describe(cluster, out, err);
            } else if (resetOffsets) {
                exitCode = reset(cluster, strategy, selections, out);
            } else {
                exitCode = delete(cluster, out, err);
            }
            return exitCode;
        });
    }

    private Map<String, Object> adminProperties() {
        return withTimeout(connection.adminProperties(), timeoutMs);
    }

    /** The admin properties with --timeout as the API and request timeouts, unless the config file set them. */
    static Map<String, Object> withTimeout(Map<String, Object> properties, long timeoutMs) {
        properties.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeoutMs);
        properties.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeoutMs);
        return properties;
    }

    /** The option combinations kafka-consumer-groups.sh accepts; anything else is one line naming the conflict. */
    private void checkOptions() {
        int actions = count(list, describe, resetOffsets, delete);
        if (actions != 1) {
            throw new GroupOptionsException("Exactly one of --list, --describe, --reset-offsets or --delete is needed"
                    + (actions > 1 ? ", not " + actions : ""));
        }
        if (timeoutMs <= 0 || timeoutMs > Integer.MAX_VALUE) {
            throw new GroupOptionsException("--timeout must be between 1 and " + Integer.MAX_VALUE + " ms");
        }
        if (list) {
            notValidWithList(!groups.isEmpty(), "--group");
            notValidWithList(allGroups, "--all-groups");
        } else if (groups.isEmpty() == !allGroups) {
            throw new GroupOptionsException(action() + " needs --group or --all-groups (one of them)");
        }
        if (describe) {
            checkDescribeOptions();
        } else {
            onlyValidWith("--describe", offsets, "--offsets");
            onlyValidWith("--describe", members, "--members");
            onlyValidWith("--describe", verbose, "--verbose");
            onlyValidWith("--list or --describe", state != null && !list, "--state");
        }
        List<String> strategies = strategyOptions();
        if (!resetOffsets) {
            onlyValidWith("--reset-offsets", !topics.isEmpty(), "--topic");
            onlyValidWith("--reset-offsets", allTopics, "--all-topics");
            onlyValidWith("--reset-offsets", !strategies.isEmpty(), String.join(", ", strategies));
            onlyValidWith("--reset-offsets", dryRun, "--dry-run");
            onlyValidWith("--reset-offsets", execute, "--execute");
            return;
        }
        if (topics.isEmpty() == !allTopics) {
            throw new GroupOptionsException("--reset-offsets needs --topic or --all-topics (one of them)");
        }
        if (strategies.size() != 1) {
            throw new GroupOptionsException("--reset-offsets needs exactly one of --to-earliest, --to-latest, "
                    + "--to-offset, --to-datetime or --shift-by"
                    + (strategies.isEmpty() ? "" : ", not " + String.join(" and ", strategies)));
        }
        if (dryRun && execute) {
            throw new GroupOptionsException("--dry-run and --execute are mutually exclusive");
        }
        if (toOffset != null && toOffset < 0) {
            throw new GroupOptionsException("--to-offset must be 0 or more, not " + toOffset);
        }
    }

    private void checkDescribeOptions() {
        if (count(offsets, members, state != null) > 1) {
            throw new GroupOptionsException("--describe takes at most one of --offsets, --members or --state");
        }
        if (state != null && !state.isEmpty()) {
            throw new GroupOptionsException("--describe --state takes no value (got '" + state + "')");
        }
        if (verbose && !members) {
            throw new GroupOptionsException("--verbose is only valid with --describe --members");
        }
    }

    /** The reset strategy options given, in the order the help lists them. */
    private List<String> strategyOptions() {
        List<String> given = new ArrayList<>();
        addIf(given, toEarliest, "--to-earliest");
        addIf(given, toLatest, "--to-latest");
        addIf(given, toOffset != null, "--to-offset");
        addIf(given, toDatetime != null, "--to-datetime");
        addIf(given, shiftBy != null, "--shift-by");
        return given;
    }

    private static void addIf(List<String> names, boolean given, String name) {
        if (given) {
            names.add(name);
        }
    }

    private static void notValidWithList(boolean given, String option) {
        if (given) {
            throw new GroupOptionsException(option + " is not valid with --list");
        }
    }

    private static void onlyValidWith(String actions, boolean given, String option) {
        if (given) {
            throw new GroupOptionsException(option + " is only valid with " + actions);
        }
    }

    private static int count(boolean... flags) {
        int set = 0;
        for (boolean flag : flags) {
            set += flag ? 1 : 0;
        }
        return set;
    }

    private String action() {
        return describe ? "--describe" : resetOffsets ? "--reset-offsets" : "--delete";
    }

    private OffsetResetStrategy strategy() {
        if (toEarliest) {
            return new OffsetResetStrategy.ToEarliest();
        }
        if (toLatest) {
            return new OffsetResetStrategy.ToLatest();
        }
        if (toOffset != null) {
            return new OffsetResetStrategy.ToOffset(toOffset);
        }
        if (shiftBy != null) {
            return new OffsetResetStrategy.ShiftBy(shiftBy);
        }
        return new OffsetResetStrategy.ToDatetime(ResetDatetime.parseEpochMs(toDatetime, ZoneId.systemDefault()));
    }

    /** The --list --state filter: state names in any case, comma-separated; an empty value filters nothing. */
    private static Set<GroupState> states(String text) {
        Set<GroupState> known = GroupState.groupStatesForType(GroupType.CLASSIC);
        Set<GroupState> states = EnumSet.noneOf(GroupState.class);
        for (String name : text.split(",")) {
            if (name.isBlank()) {
                continue;
            }
            GroupState match = known.stream().filter(s -> s.toString().equalsIgnoreCase(name.trim())).findFirst()
                    .orElseThrow(() -> new GroupOptionsException("Unknown group state '" + name.trim()
                            + "'; known: " + known.stream().map(Object::toString).sorted()
                            .collect(Collectors.joining(", "))));
            states.add(match);
        }
        return states;
    }

    private int list(ConsumerGroupAdmin cluster, Set<GroupState> states, PrintWriter out)
            throws ExecutionException, InterruptedException {
        List<GroupListing> listed = cluster.listGroups(states);
        if (state != null) {
            GroupReports.listing(listed).lines().forEach(out::println);
        } else {
            listed.forEach(group -> out.println(group.groupId()));
        }
        return 0;
    }

    private List<String> targetGroups(ConsumerGroupAdmin cluster) throws ExecutionException, InterruptedException {
        if (!allGroups) {
            return groups.stream().distinct().toList();
        }
        return cluster.listGroups(Set.of()).stream().map(GroupListing::groupId).toList();
    }

    private int describe(ConsumerGroupAdmin cluster, PrintWriter out, PrintWriter err)
            throws ExecutionException, InterruptedException {
        int exitCode = 0;
        boolean first = true;
        for (String group : targetGroups(cluster)) {
            ConsumerGroupDescription description;
            try {
                description = cluster.describeExisting(group);
            } catch (GroupCommandException e) {
                out.flush();
                err.println("Error: " + e.getMessage());
                err.flush();
                exitCode = KraftCli.EXIT_FAILURE;
                continue;
            }
            if (!first) {
                out.println();
            }
            first = false;
            describe(cluster, description, out);
        }
        return exitCode;
    }

    private void describe(ConsumerGroupAdmin cluster, ConsumerGroupDescription description, PrintWriter out)
            throws ExecutionException, InterruptedException {
        String group = description.groupId();
        GroupState groupState = description.groupState();
        if (state != null) {
            print(GroupReports.state(description), out);
            return;
        }
        if (groupState == GroupState.PREPARING_REBALANCE || groupState == GroupState.COMPLETING_REBALANCE) {
            out.println("Warning: Consumer group '" + group + "' is rebalancing.");
        } else if (description.members().isEmpty()) {
            out.println("Consumer group '" + group + "' has no active members.");
        }
        if (members) {
            print(GroupReports.members(description, verbose), out);
            return;
        }
        List<PartitionLag> rows = cluster.lag(description);
        if (!rows.isEmpty()) {
            print(GroupReports.offsets(rows), out);
        }
    }

    private int reset(ConsumerGroupAdmin cluster, OffsetResetStrategy strategy, List<TopicSelection> selections,
                      PrintWriter out) throws ExecutionException, InterruptedException {
        List<String> targets = targetGroups(cluster);
        // Every group is checked before any is changed, so a refusal leaves all of them as they were.
        for (String group : targets) {
            cluster.requireInactive(group);
        }
        Map<String, Map<TopicPartition, Long>> plans = new LinkedHashMap<>();
        for (String group : targets) {
            plans.put(group, cluster.planReset(group, cluster.resetPartitions(group, selections), strategy));
        }
        boolean first = true;
        for (Map.Entry<String, Map<TopicPartition, Long>> plan : plans.entrySet()) {
            if (execute && !plan.getValue().isEmpty()) {
                cluster.commit(plan.getKey(), plan.getValue());
            }
            if (!first) {
                out.println();
            }
            first = false;
            if (plan.getValue().isEmpty()) {
                out.println("Consumer group '" + plan.getKey() + "' has no committed offsets to reset.");
            } else {
                print(GroupReports.resetPlan(plan.getKey(), plan.getValue()), out);
            }
        }
        return 0;
    }

    private int delete(ConsumerGroupAdmin cluster, PrintWriter out, PrintWriter err)
            throws ExecutionException, InterruptedException {
        List<String> targets = targetGroups(cluster);
        if (targets.isEmpty()) {
            return 0;
        }
        int exitCode = 0;
        for (Map.Entry<String, Throwable> outcome : cluster.delete(targets).entrySet()) {
            if (outcome.getValue() == null) {
                out.println("Deleted consumer group '" + outcome.getKey() + "'.");
            } else {
                out.flush();
                err.println("Error: Consumer group '" + outcome.getKey() + "' could not be deleted: "
                        + deleteFailure(outcome.getValue()));
                err.flush();
                exitCode = KraftCli.EXIT_FAILURE;
            }
        }
        return exitCode;
    }

    private static String deleteFailure(Throwable failure) {
        if (failure instanceof GroupNotEmptyException) {
            return "it is not empty (it has active members).";
        }
        if (failure instanceof GroupIdNotFoundException) {
            return "it does not exist.";
        }
        return ClientFailures.message(failure);
    }

    private static void print(TextTable table, PrintWriter out) {
        table.lines().forEach(out::println);
    }
}
