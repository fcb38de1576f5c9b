package io.kraft.cli;

import io.kraft.cli.groups.GroupReports;
import io.kraft.cli.groups.TextTable;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli share-groups --bootstrap-server HOST:PORT --describe --group G}: share groups (KIP-932) through
 * the Kafka Admin client, with the member columns of Kafka's {@code kafka-share-groups.sh --describe --members}, or
 * its state columns with {@code --state}.
 */
@Command(name = "share-groups", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Describes share groups: their members and assignments, or their state "
                + "(like kafka-share-groups.sh).")
final class ShareGroupsCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private AdminConnectionOptions connection;

    @Option(names = "--describe", required = true, description = "Describe the groups named by --group.")
    private boolean describe;

    @Option(names = "--group", required = true, paramLabel = "GROUP", description = "A group; repeat for more.")
    private List<String> groups = new ArrayList<>();

    @Option(names = "--members", description = "The members and their partitions (the default view).")
    private boolean members;

    @Option(names = "--state", description = "The group's coordinator, state and member count.")
    private boolean state;

    @Option(names = "--timeout", paramLabel = "MS", defaultValue = "" + GroupsCommand.DEFAULT_TIMEOUT_MS,
            description = "How long each call to the cluster may take, in milliseconds (default: ${DEFAULT-VALUE}).")
    private long timeoutMs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (members && state) {
            err.println("Error: --describe takes at most one of --members or --state");
            err.flush();
            return KraftCli.EXIT_USAGE;
        }
        if (timeoutMs <= 0 || timeoutMs > Integer.MAX_VALUE) {
            err.println("Error: --timeout must be between 1 and " + Integer.MAX_VALUE + " ms");
            err.flush();
            return KraftCli.EXIT_USAGE;
        }
        Map<String, Object> properties = GroupsCommand.withTimeout(connection.adminProperties(), timeoutMs);
        return AdminConnectionOptions.run(properties, out, err, admin -> {
            int exitCode = 0;
            Map<String, org.apache.kafka.common.KafkaFuture<ShareGroupDescription>> described =
                    admin.describeShareGroups(groups.stream().distinct().toList()).describedGroups();
            for (Map.Entry<String, org.apache.kafka.common.KafkaFuture<ShareGroupDescription>> e
                    : described.entrySet()) {
                ShareGroupDescription group;
                try {
                    group = e.getValue().get();
                } catch (java.util.concurrent.ExecutionException failure) {
                    if (!(failure.getCause() instanceof GroupIdNotFoundException)) {
                        throw failure;
                    }
                    group = null;
                }
                if (group == null || group.groupState() == GroupState.DEAD) {
                    out.flush();
                    err.println("Error: Share group '" + e.getKey() + "' does not exist.");
                    err.flush();
                    exitCode = KraftCli.EXIT_FAILURE;
                    continue;
                }
                report(group).lines().forEach(out::println);
                out.println();
            }
            return exitCode;
        });
    }

    private TextTable report(ShareGroupDescription group) {
        if (state) {
            return new TextTable("GROUP", "COORDINATOR (ID)", "STATE", "#MEMBERS").add(List.of(group.groupId(),
                    group.coordinator() == null ? "" : group.coordinator().host() + ":" + group.coordinator().port()
                            + " (" + group.coordinator().id() + ")",
                    String.valueOf(group.groupState()), Integer.toString(group.members().size())));
        }
        TextTable table = new TextTable("GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "ASSIGNMENT");
        for (ShareMemberDescription member : group.members()) {
            String assignment = GroupReports.assignment(member.assignment().topicPartitions());
            table.add(List.of(group.groupId(), member.consumerId(), member.host(), member.clientId(),
                    Integer.toString(member.assignment().topicPartitions().size()), assignment));
        }
        return table;
    }
}
