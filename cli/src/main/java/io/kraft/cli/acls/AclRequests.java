package io.kraft.cli.acls;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import picocli.CommandLine.Option;

/**
 * kafka-acls.sh's options as ACL bindings (for --add) and filters (for --remove and --list): each resource named
 * (--topic, --group, --cluster, --transactional-id, with --resource-pattern-type) times each principal and host
 * (--allow-principal/--allow-host, --deny-principal/--deny-host) times each operation (--operation, default All), or
 * the sets of --producer and --consumer.
 */
public final class AclRequests {
    /** The one name of the cluster resource. */
    static final String CLUSTER_NAME = "kafka-cluster";

    private static final Map<ResourceType, Set<AclOperation>> VALID_OPERATIONS = Map.of(
            ResourceType.TOPIC, EnumSet.of(AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE,
                    AclOperation.DESCRIBE, AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS,
                    AclOperation.ALTER_CONFIGS, AclOperation.ALL),
            ResourceType.GROUP, EnumSet.of(AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE,
                    AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.ALL),
            ResourceType.CLUSTER, EnumSet.of(AclOperation.CREATE, AclOperation.CLUSTER_ACTION,
                    AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE,
                    AclOperation.ALTER, AclOperation.DESCRIBE, AclOperation.ALL),
            ResourceType.TRANSACTIONAL_ID, EnumSet.of(AclOperation.DESCRIBE, AclOperation.WRITE,
                    AclOperation.TWO_PHASE_COMMIT, AclOperation.ALL));

    /** The options, as kafka-acls.sh names them. */
    public static final class Options {
        @Option(names = "--allow-principal", paramLabel = "PRINCIPAL",
                description = "A principal (type:name, e.g. User:alice; User:* for everyone) to allow; repeatable.")
        List<String> allowPrincipals = new ArrayList<>();
        @Option(names = "--deny-principal", paramLabel = "PRINCIPAL", description = "A principal to deny; repeatable.")
        List<String> denyPrincipals = new ArrayList<>();
        @Option(names = "--allow-host", paramLabel = "HOST",
                description = "A host (IP address) the allowed principals may connect from; * (default) for any.")
        List<String> allowHosts = new ArrayList<>();
        @Option(names = "--deny-host", paramLabel = "HOST",
                description = "A host the denied principals are denied from; * (default) for any.")
        List<String> denyHosts = new ArrayList<>();
        @Option(names = "--operation", paramLabel = "OPERATION", description = "Read, Write, Create, Delete, Alter,"
                + " Describe, ClusterAction, DescribeConfigs, AlterConfigs, IdempotentWrite, All; repeatable.")
        List<String> operations = new ArrayList<>();
        @Option(names = "--principal", paramLabel = "PRINCIPAL",
                description = "With --list: only the ACLs of this principal; repeatable.")
        List<String> listPrincipals = new ArrayList<>();
        @Option(names = "--topic", paramLabel = "TOPIC", description = "A topic (or * for all); repeatable.")
        List<String> topics = new ArrayList<>();
        @Option(names = "--group", paramLabel = "GROUP", description = "A consumer group (or *); repeatable.")
        List<String> groups = new ArrayList<>();
        @Option(names = "--cluster", description = "The cluster.")
        boolean cluster;
        @Option(names = "--transactional-id", paramLabel = "ID",
                description = "A transactional id (or *); repeatable.")
        List<String> transactionalIds = new ArrayList<>();
        @Option(names = "--resource-pattern-type", paramLabel = "TYPE", description = "literal (default), prefixed;"
                + " with --list and --remove also any or match.")
        String patternType = "literal";
        @Option(names = "--producer",
                description = "The producer's ACLs: Write, Describe and Create on the topics, Write and Describe on"
                        + " the transactional ids.")
        boolean producer;
        @Option(names = "--idempotent", description = "With --producer: IdempotentWrite on the cluster as well.")
        boolean idempotent;
        @Option(names = "--consumer",
                description = "The consumer's ACLs: Read and Describe on the topics, Read on the groups.")
        boolean consumer;
    }

    private final Options options;
    private final PatternType patternType;

    /** A resource named on the command line, before a pattern type makes it a pattern or a filter. */
    private record Target(ResourceType type, String name) {
    }

    /** @throws AclOptionsException if --resource-pattern-type is not a pattern type */
    public AclRequests(Options options) {
        this.options = options;
        this.patternType = parsePatternType(options.patternType);
    }

    /** The ACLs --add creates. */
    public List<AclBinding> additions() {
        if (patternType != PatternType.LITERAL && patternType != PatternType.PREFIXED) {
            throw new AclOptionsException("A --resource-pattern-type of " + options.patternType
                    + " is only valid with --list and --remove; --add needs literal or prefixed");
        }
        requirePrincipals("add");
        List<AclBinding> bindings = new ArrayList<>();
        operationsByTarget("add").forEach((target, operations) -> {
            ResourcePattern pattern = new ResourcePattern(target.type(), target.name(), patternType);
            for (AclOperation operation : operations) {
                for (AccessControlEntry entry : entries(operation)) {
                    bindings.add(new AclBinding(pattern, entry));
                }
            }
        });
        return bindings;
    }

    /**
     * The filters --remove deletes with: with no principal every ACL of the named resources, else those of the
     * principals, hosts and operations (default All, as kafka-acls.sh).
     */
    public List<AclBindingFilter> removals() {
        List<AclBindingFilter> filters = new ArrayList<>();
        if (options.allowPrincipals.isEmpty() && options.denyPrincipals.isEmpty()) {
            for (Target target : targets("remove")) {
                filters.add(new AclBindingFilter(filter(target), AccessControlEntryFilter.ANY));
            }
            return filters;
        }
        operationsByTarget("remove").forEach((target, operations) -> {
            for (AclOperation operation : operations) {
                for (AccessControlEntry entry : entries(operation)) {
                    filters.add(new AclBindingFilter(filter(target), entry.toFilter()));
                }
            }
        });
        return filters;
    }

    /** The filters --list describes with: the named resources, or every resource; --principal narrows them. */
    public List<AclBindingFilter> listings() {
        List<ResourcePatternFilter> resources = new ArrayList<>();
        for (Target target : targets(null)) {
            resources.add(filter(target));
        }
        if (resources.isEmpty()) {
            resources.add(new ResourcePatternFilter(ResourceType.ANY, null,
                    patternType == PatternType.LITERAL ? PatternType.ANY : patternType));
        }
        List<AclBindingFilter> filters = new ArrayList<>();
        for (ResourcePatternFilter resource : resources) {
            if (options.listPrincipals.isEmpty()) {
                filters.add(new AclBindingFilter(resource, AccessControlEntryFilter.ANY));
            }
            for (String principal : options.listPrincipals) {
                checkPrincipal(principal);
                filters.add(new AclBindingFilter(resource, new AccessControlEntryFilter(principal, null,
                        AclOperation.ANY, AclPermissionType.ANY)));
            }
        }
        return filters;
    }

    private ResourcePatternFilter filter(Target target) {
        return new ResourcePatternFilter(target.type(), target.name(), patternType);
    }

    private void requirePrincipals(String action) {
        if (options.allowPrincipals.isEmpty() && options.denyPrincipals.isEmpty()) {
            throw new AclOptionsException("You must specify one of: --allow-principal, --deny-principal when trying"
                    + " to " + action + " ACLs.");
        }
    }

    private List<AccessControlEntry> entries(AclOperation operation) {
        List<AccessControlEntry> entries = new ArrayList<>();
        for (String principal : options.allowPrincipals) {
            checkPrincipal(principal);
            for (String host : hosts(options.allowHosts)) {
                entries.add(new AccessControlEntry(principal, host, operation, AclPermissionType.ALLOW));
            }
        }
        for (String principal : options.denyPrincipals) {
            checkPrincipal(principal);
            for (String host : hosts(options.denyHosts)) {
                entries.add(new AccessControlEntry(principal, host, operation, AclPermissionType.DENY));
            }
        }
        return entries;
    }

    private static List<String> hosts(List<String> hosts) {
        return hosts.isEmpty() ? List.of("*") : hosts;
    }

    private static void checkPrincipal(String principal) {
        int colon = principal.indexOf(':');
        if (colon <= 0 || colon == principal.length() - 1) {
            throw new AclOptionsException("Principal '" + principal + "' is not of the form type:name (e.g."
                    + " User:alice)");
        }
    }

    /** The resources named on the command line, in kafka-acls.sh's order; at least one unless {@code action} is null. */
    private List<Target> targets(String action) {
        List<Target> targets = new ArrayList<>();
        options.topics.forEach(topic -> targets.add(new Target(ResourceType.TOPIC, topic)));
        options.groups.forEach(group -> targets.add(new Target(ResourceType.GROUP, group)));
        options.transactionalIds.forEach(id -> targets.add(new Target(ResourceType.TRANSACTIONAL_ID, id)));
        if (options.cluster) {
            targets.add(new Target(ResourceType.CLUSTER, CLUSTER_NAME));
        }
        if (targets.isEmpty() && action != null) {
            throw new AclOptionsException("You must specify one of: --topic, --cluster, --group, --transactional-id"
                    + " when trying to " + action + " ACLs.");
        }
        return targets;
    }

    /** Each resource named, with its operations: --operation (default All), or the --producer/--consumer sets. */
    private Map<Target, Set<AclOperation>> operationsByTarget(String action) {
        Map<Target, Set<AclOperation>> byTarget = new LinkedHashMap<>();
        if (!options.producer && !options.consumer) {
            Set<AclOperation> operations = parseOperations();
            for (Target target : targets(action)) {
                Set<AclOperation> valid = VALID_OPERATIONS.get(target.type());
                for (AclOperation operation : operations) {
                    if (!valid.contains(operation)) {
                        throw new AclOptionsException("ResourceType " + target.type() + " only supports operations "
                                + valid);
                    }
                }
                byTarget.put(target, operations);
            }
            return byTarget;
        }
        if (!options.operations.isEmpty()) {
            throw new AclOptionsException("--operation is not valid with --producer or --consumer");
        }
        if (options.topics.isEmpty()) {
            throw new AclOptionsException("--producer and --consumer need --topic");
        }
        if (options.consumer && options.groups.isEmpty()) {
            throw new AclOptionsException("--consumer needs --group");
        }
        for (String topic : options.topics) {
            Set<AclOperation> operations = byTarget.computeIfAbsent(new Target(ResourceType.TOPIC, topic),
                    t -> new LinkedHashSet<>());
            if (options.producer) {
                operations.addAll(List.of(AclOperation.WRITE, AclOperation.DESCRIBE, AclOperation.CREATE));
            }
            if (options.consumer) {
                operations.addAll(List.of(AclOperation.READ, AclOperation.DESCRIBE));
            }
        }
        if (options.consumer) {
            options.groups.forEach(group -> byTarget.put(new Target(ResourceType.GROUP, group),
                    Set.of(AclOperation.READ)));
        }
        if (options.producer) {
            options.transactionalIds.forEach(id -> byTarget.put(new Target(ResourceType.TRANSACTIONAL_ID, id),
                    new LinkedHashSet<>(List.of(AclOperation.WRITE, AclOperation.DESCRIBE))));
            if (options.idempotent) {
                byTarget.put(new Target(ResourceType.CLUSTER, CLUSTER_NAME), Set.of(AclOperation.IDEMPOTENT_WRITE));
            }
        }
        return byTarget;
    }

    private Set<AclOperation> parseOperations() {
        if (options.operations.isEmpty()) {
            return new LinkedHashSet<>(List.of(AclOperation.ALL));
        }
        Set<AclOperation> operations = new LinkedHashSet<>();
        for (String name : options.operations) {
            AclOperation operation = AclOperation.fromString(name.replace("_", "").replace("-", ""));
            if (operation == AclOperation.UNKNOWN || operation == AclOperation.ANY) {
                throw new AclOptionsException("Unknown --operation '" + name + "'");
            }
            operations.add(operation);
        }
        return operations;
    }

    private static PatternType parsePatternType(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "literal" -> PatternType.LITERAL;
            case "prefixed" -> PatternType.PREFIXED;
            case "any" -> PatternType.ANY;
            case "match" -> PatternType.MATCH;
            default -> throw new AclOptionsException("--resource-pattern-type must be literal, prefixed, any or"
                    + " match, not '" + text + "'");
        };
    }
}
