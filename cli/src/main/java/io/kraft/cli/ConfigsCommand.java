package io.kraft.cli;

import io.kraft.cli.client.ConfigAssignments;
import io.kraft.cli.quotas.QuotaConfigs;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.common.config.ConfigResource;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code kraft-cli configs --bootstrap-server HOST:PORT --entity-type topics|brokers|broker-loggers|users|clients|ips
 * --entity-name X (--describe | --alter --add-config k=v,... --delete-config k,...)}: dynamic configs of topics and
 * brokers, a node's log levels, users' SCRAM credentials, and client quotas, with the options and output of Kafka's
 * {@code kafka-configs.sh}.
 */
@Command(name = "configs", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Describes and alters the dynamic configs of topics and brokers, a node's log levels, and users'"
                + " SCRAM credentials (like kafka-configs.sh).")
final class ConfigsCommand implements Callable<Integer> {
    /** A SCRAM credential's bracketed value, which holds commas of its own: {@code SCRAM-SHA-256=[iterations=..]}. */
    private static final java.util.regex.Pattern SCRAM_VALUE = java.util.regex.Pattern.compile("([^,=]+)=\\[[^\\]]*\\]");

    @Spec
    private CommandSpec spec;

    @Mixin
    private AdminConnectionOptions connection;

    @Option(names = "--entity-type", required = true, paramLabel = "TYPE",
            description = "topics, brokers, broker-loggers (a node's log levels, changed at run time), or users (SCRAM "
                    + "credentials and client quotas), clients and ips (client quotas).")
    private String entityType;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Entity entity;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Action action;

    @Option(names = "--add-config", paramLabel = "K=V,...",
            description = "With --alter: configs to set, comma-separated; a list value goes in brackets: k=[a,b].")
    private String addConfig;

    @Option(names = "--delete-config", paramLabel = "K,...",
            description = "With --alter: configs to remove, comma-separated.")
    private String deleteConfig;

    @Option(names = "--all", description = "With --describe: every config, not only the dynamic ones.")
    private boolean all;

    /** A named entity or, for brokers, the cluster-wide default. */
    static final class Entity {
        @Option(names = "--entity-name", required = true, paramLabel = "NAME",
                description = "The topic name, broker id or user name.")
        String name;
        @Option(names = "--entity-default", required = true,
                description = "The cluster-wide default of all brokers.")
        boolean clusterDefault;
    }

    /** Exactly one of the actions. */
    static final class Action {
        @Option(names = "--describe", required = true, description = "Show the entity's configs.")
        boolean describe;
        @Option(names = "--alter", required = true, description = "Change the entity's configs.")
        boolean alter;
    }

    @Override
    public Integer call() {
        if (entityType.equals("users") && action.alter && changesScramCredentials()) {
            return users();
        }
        if (QuotaConfigs.isQuotaEntityType(entityType)) {
            return quotas();
        }
        ConfigResource resource = resource();
        if (action.alter && addConfig == null && deleteConfig == null) {
            throw usage("--alter needs --add-config and/or --delete-config");
        }
        if (!action.alter && (addConfig != null || deleteConfig != null)) {
            throw usage("--add-config and --delete-config are only valid with --alter");
        }
        if (all && !action.describe) {
            throw usage("--all is only valid with --describe");
        }
        List<AlterConfigOp> operations = action.alter ? operations() : List.of();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        return AdminConnectionOptions.run(connection.adminProperties(), out, err, admin -> {
            if (action.describe) {
                describe(admin, resource, out);
            } else {
                admin.incrementalAlterConfigs(Map.of(resource, operations)).all().get();
                out.println("Completed updating " + (resource.name().isEmpty() ? "default config for brokers in the"
                        + " cluster." : "config for " + entityNoun(resource) + " " + resource.name() + "."));
            }
            return 0;
        });
    }

    /** {@code --entity-type users --alter} of SCRAM credentials, with kafka-configs.sh's syntax and output. */
    private Integer users() {
        if (entity.clusterDefault) {
            throw usage("--entity-default is not valid for SCRAM credentials, which belong to one user");
        }
        List<UserScramCredentialAlteration> changes;
        try {
            changes = UserScramConfigs.alterations(entity.name, addConfig, deleteConfig);
        } catch (IllegalArgumentException e) {
            throw usage("Invalid SCRAM config: " + e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        return AdminConnectionOptions.run(connection.adminProperties(), out, spec.commandLine().getErr(), admin -> {
            UserScramConfigs.alter(admin, entity.name, changes, out);
            return 0;
        });
    }

    /** users, clients, ips: client quotas, through AlterClientQuotas and DescribeClientQuotas. */
    private int quotas() {
        if (all) {
            throw usage("--all is not valid with --entity-type " + entityType);
        }
        QuotaConfigs quotas = new QuotaConfigs(entityType, entity.clusterDefault ? null : entity.name);
        var ops = action.alter ? quotaOps(quotas) : List.<org.apache.kafka.common.quota.ClientQuotaAlteration.Op>of();
        PrintWriter out = spec.commandLine().getOut();
        return AdminConnectionOptions.run(connection.adminProperties(), out, spec.commandLine().getErr(), admin -> {
            if (action.describe) {
                quotas.describe(admin, out);
                if (entityType.equals("users") && !entity.clusterDefault) {
                    // kafka-configs.sh shows a user's SCRAM credentials with its quotas.
                    UserScramConfigs.describe(admin, entity.name, out);
                }
            } else {
                quotas.alter(admin, ops, out);
            }
            return 0;
        });
    }

    private List<org.apache.kafka.common.quota.ClientQuotaAlteration.Op> quotaOps(QuotaConfigs quotas) {
        if (addConfig == null && deleteConfig == null) {
            throw usage("--alter needs --add-config and/or --delete-config");
        }
        try {
            return quotas.ops(addConfig, deleteConfig);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /**
     * Whether an --alter of users changes SCRAM credentials (SCRAM-SHA-256/512 keys) rather than client quotas; both
     * at once is refused, as two requests to two APIs that could half succeed.
     */
    private boolean changesScramCredentials() {
        String keys = (addConfig == null ? "" : SCRAM_VALUE.matcher(addConfig).replaceAll("$1")) + ","
                + (deleteConfig == null ? "" : deleteConfig);
        boolean scram = false;
        boolean other = false;
        for (String key : keys.split(",")) {
            String name = key.split("=", 2)[0].trim();
            if (name.isEmpty()) {
                continue;
            }
            if (name.toUpperCase(java.util.Locale.ROOT).startsWith("SCRAM-")) {
                scram = true;
            } else {
                other = true;
            }
        }
        if (scram && other) {
            throw usage("--alter of users changes SCRAM credentials or client quotas, not both at once: run it twice");
        }
        return scram;
    }

    private ConfigResource resource() {
        switch (entityType) {
            case "topics" -> {
                if (entity.clusterDefault) {
                    throw usage("--entity-default is only valid with --entity-type brokers");
                }
                return new ConfigResource(ConfigResource.Type.TOPIC, entity.name);
            }
            case "brokers" -> {
                String name = entity.clusterDefault ? "" : entity.name;
                if (!name.isEmpty() && !name.chars().allMatch(Character::isDigit)) {
                    throw usage("--entity-name of a broker must be its id, not '" + name + "'");
                }
                return new ConfigResource(ConfigResource.Type.BROKER, name);
            }
            case "broker-loggers" -> {
                if (entity.clusterDefault || !entity.name.chars().allMatch(Character::isDigit)) {
                    throw usage("--entity-name of broker-loggers must be a broker id");
                }
                return new ConfigResource(ConfigResource.Type.BROKER_LOGGER, entity.name);
            }
            default -> throw usage("--entity-type must be topics, brokers, broker-loggers or users, not '"
                    + entityType + "'");
        }
    }

    private List<AlterConfigOp> operations() {
        List<AlterConfigOp> operations = new ArrayList<>();
        try {
            if (addConfig != null) {
                ConfigAssignments.parse(addConfig).forEach((key, value) -> operations.add(
                        new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET)));
            }
            if (deleteConfig != null) {
                for (String key : ConfigAssignments.keys(deleteConfig)) {
                    operations.add(new AlterConfigOp(new ConfigEntry(key, ""), AlterConfigOp.OpType.DELETE));
                }
            }
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (operations.isEmpty()) {
            throw usage("--add-config and --delete-config name no configs");
        }
        return operations;
    }

    private void describe(Admin admin, ConfigResource resource, PrintWriter out)
            throws InterruptedException, ExecutionException {
        Config config = admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true))
                .all().get().get(resource);
        ConfigEntry.ConfigSource dynamicSource = switch (resource.type()) {
            case TOPIC -> ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG;
            case BROKER_LOGGER -> ConfigEntry.ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG;
            default -> resource.name().isEmpty() ? ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
                    : ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG;
        };
        if (resource.name().isEmpty()) {
            out.println((all ? "All" : "Default") + " configs for brokers in the cluster are:");
        } else {
            out.println((all ? "All" : "Dynamic") + " configs for " + entityNoun(resource) + " " + resource.name()
                    + " are:");
        }
        List<ConfigEntry> entries = new ArrayList<>(config.entries());
        if (resource.type() == ConfigResource.Type.BROKER_LOGGER) {
            entries.sort(Comparator.comparing(ConfigEntry::name));
        }
        for (ConfigEntry entry : entries) {
            if (all || entry.source() == dynamicSource) {
                String synonyms = entry.synonyms().stream()
                        .map(s -> s.source() + ":" + s.name() + "=" + s.value())
                        .collect(Collectors.joining(", ", "{", "}"));
                out.println("  " + entry.name() + "=" + (entry.isSensitive() ? null : entry.value())
                        + " sensitive=" + entry.isSensitive() + " synonyms=" + synonyms);
            }
        }
    }

    private static String entityNoun(ConfigResource resource) {
        return switch (resource.type()) {
            case TOPIC -> "topic";
            case BROKER_LOGGER -> "broker-logger";
            default -> "broker";
        };
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
