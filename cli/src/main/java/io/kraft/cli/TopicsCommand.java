package io.kraft.cli;

import io.kraft.cli.client.ClientProperties;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli topics --bootstrap-server HOST:PORT (--create|--list|--describe|--alter|--delete)}: topic
 * administration through the Kafka Admin client, with the options and output of Kafka's {@code kafka-topics.sh}.
 */
@Command(name = "topics", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Creates, lists, describes, alters and deletes topics (like kafka-topics.sh).")
final class TopicsCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private AdminConnectionOptions connection;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Action action;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "The topic to act on.")
    private String topic;

    @Option(names = "--partitions", paramLabel = "N",
            description = "With --create: the partition count (default: the broker's num.partitions); "
                    + "with --alter: the new, larger count.")
    private Integer partitions;

    @Option(names = "--replication-factor", paramLabel = "R",
            description = "With --create: replicas per partition (default: the broker's default.replication.factor).")
    private Short replicationFactor;

    @Option(names = "--config", paramLabel = "KEY=VALUE",
            description = "With --create: a topic config override; repeat for more.")
    private List<String> configs;

    @Option(names = "--if-not-exists", description = "With --create: succeed quietly when the topic exists.")
    private boolean ifNotExists;

    @Option(names = "--if-exists", description = "With --alter, --delete or --describe: do nothing when the "
            + "topic does not exist.")
    private boolean ifExists;

    /** Exactly one of the actions. */
    static final class Action {
        @Option(names = "--create", required = true, description = "Create a topic.")
        boolean create;
        @Option(names = "--list", required = true, description = "List all topics.")
        boolean list;
        @Option(names = "--describe", required = true, description = "Describe one topic (--topic) or all.")
        boolean describe;
        @Option(names = "--alter", required = true, description = "Add partitions to a topic.")
        boolean alter;
        @Option(names = "--delete", required = true, description = "Delete a topic.")
        boolean delete;
    }

    @Override
    public Integer call() {
        checkOptions();
        Map<String, String> overrides;
        try {
            overrides = ClientProperties.keyValues(configs, "--config");
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        return AdminConnectionOptions.run(connection.adminProperties(), out, err, admin -> {
            if (action.create) {
                create(admin, overrides, out);
            } else if (action.list) {
                list(admin, out);
            } else if (action.describe) {
                describe(admin, out);
            } else if (action.alter) {
                if (exists(admin)) {
                    admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions))).all().get();
                }
            } else if (exists(admin)) {
                admin.deleteTopics(List.of(topic)).all().get();
            }
            return 0;
        });
    }

    private void checkOptions() {
        boolean needsTopic = action.create || action.alter || action.delete;
        if (needsTopic && topic == null) {
            throw usage("--topic is required with " + actionName());
        }
        if (action.alter && partitions == null) {
            throw usage("--alter needs --partitions (configs are altered with 'kraft-cli configs')");
        }
        if (partitions != null && !(action.create || action.alter)) {
            throw usage("--partitions is only valid with --create or --alter");
        }
        if (replicationFactor != null && !action.create) {
            throw usage("--replication-factor is only valid with --create");
        }
        if (configs != null && !action.create) {
            throw usage("--config is only valid with --create (use 'kraft-cli configs' to alter configs)");
        }
        if (ifNotExists && !action.create) {
            throw usage("--if-not-exists is only valid with --create");
        }
        if (ifExists && !(action.alter || action.delete || action.describe)) {
            throw usage("--if-exists is only valid with --alter, --delete or --describe");
        }
    }

    private String actionName() {
        return action.create ? "--create" : action.alter ? "--alter" : "--delete";
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private void create(Admin admin, Map<String, String> overrides, PrintWriter out)
            throws InterruptedException, ExecutionException {
        NewTopic newTopic = new NewTopic(topic, Optional.ofNullable(partitions), Optional.ofNullable(replicationFactor))
                .configs(overrides);
        try {
            admin.createTopics(List.of(newTopic)).all().get();
        } catch (ExecutionException e) {
            if (ifNotExists && e.getCause() instanceof TopicExistsException) {
                return;
            }
            throw e;
        }
        out.println("Created topic " + topic + ".");
    }

    private void list(Admin admin, PrintWriter out) throws InterruptedException, ExecutionException {
        for (String name : new TreeSet<>(admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get())) {
            if (topic == null || topic.equals(name)) {
                out.println(name);
            }
        }
    }

    /** Whether --topic exists; when it does not, false with --if-exists, else an error naming it. */
    private boolean exists(Admin admin) throws InterruptedException, ExecutionException {
        if (admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get().contains(topic)) {
            return true;
        }
        if (ifExists) {
            return false;
        }
        throw new IllegalArgumentException("Topic '" + topic + "' does not exist");
    }

    private void describe(Admin admin, PrintWriter out) throws InterruptedException, ExecutionException {
        Set<String> names;
        if (topic != null) {
            if (!exists(admin)) {
                return;
            }
            names = Set.of(topic);
        } else {
            names = new TreeSet<>(admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get());
        }
        if (names.isEmpty()) {
            return;
        }
        Map<String, TopicDescription> descriptions = admin.describeTopics(names).allTopicNames().get();
        List<ConfigResource> resources = names.stream()
                .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).toList();
        Map<ConfigResource, Config> configsByTopic = admin.describeConfigs(resources).all().get();
        for (String name : new TreeSet<>(names)) {
            TopicDescription description = descriptions.get(name);
            List<TopicPartitionInfo> partitionInfos = description.partitions();
            int replicas = partitionInfos.isEmpty() ? 0 : partitionInfos.get(0).replicas().size();
            Config config = configsByTopic.get(new ConfigResource(ConfigResource.Type.TOPIC, name));
            out.println("Topic: " + name + "\tTopicId: " + description.topicId() + "\tPartitionCount: "
                    + partitionInfos.size() + "\tReplicationFactor: " + replicas + "\tConfigs: " + setConfigs(config));
            for (TopicPartitionInfo partition : partitionInfos) {
                Node leader = partition.leader();
                out.println("\tTopic: " + name + "\tPartition: " + partition.partition()
                        + "\tLeader: " + (leader == null || leader.isEmpty() ? "none" : leader.idString())
                        + "\tReplicas: " + ids(partition.replicas()) + "\tIsr: " + ids(partition.isr())
                        + elrColumns(partition));
            }
        }
    }

    /**
     * The eligible leader replicas columns (KIP-966) as kafka-topics.sh prints them, when the broker answered them
     * (DescribeTopicPartitions; null from an older Metadata answer).
     */
    private static String elrColumns(TopicPartitionInfo partition) {
        StringBuilder columns = new StringBuilder();
        if (partition.elr() != null) {
            columns.append("\tElr: ").append(ids(partition.elr()));
        }
        if (partition.lastKnownElr() != null) {
            columns.append("\tLastKnownElr: ").append(ids(partition.lastKnownElr()));
        }
        return columns.toString();
    }

    /** The configs not at their built-in default, as kafka-topics.sh shows them: k=v,k=v. */
    private static String setConfigs(Config config) {
        if (config == null) {
            return "";
        }
        List<String> shown = new ArrayList<>();
        for (ConfigEntry entry : config.entries()) {
            if (entry.source() != ConfigEntry.ConfigSource.DEFAULT_CONFIG && !entry.isSensitive()) {
                shown.add(entry.name() + "=" + entry.value());
            }
        }
        return String.join(",", shown);
    }

    private static String ids(List<Node> nodes) {
        return nodes.stream().map(Node::idString).collect(Collectors.joining(","));
    }
}
