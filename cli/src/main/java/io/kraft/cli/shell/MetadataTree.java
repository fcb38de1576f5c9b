package io.kraft.cli.shell;

import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.image.TransactionMetadata;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link MetadataImage} as the shell's tree, laid out like Kafka's metadata shell:
 * <pre>
 * /brokers/&lt;id&gt;/registration, isFenced, inControlledShutdown
 * /topics/&lt;name&gt;/id, name, &lt;partition&gt;/data      (replicas, isr, leader and epochs)
 * /topicIds/&lt;id&gt;/...                              (the same topic directory, by id)
 * /configs/topic|broker/&lt;name&gt;/&lt;key&gt;               (a broker's name is its id; &lt;default&gt; for the cluster)
 * /features/&lt;name&gt;                                 (the finalized level)
 * /producerIds/nextProducerId
 * /acls/&lt;ACL id&gt;                               (one ACL, one JSON object)
 * /clientQuotas/&lt;entity&gt;/&lt;key&gt;                   (entity as user=alice,client-id=&lt;default&gt;; the value)
 * /transactions/&lt;transactional id&gt;                (the coordinator's state of the id, one JSON object)
 * /scram/&lt;mechanism&gt;/&lt;user&gt;                      (a SCRAM credential's iterations; never its salt or keys)
 * /image/offset, epoch                               (the log position the image reflects)
 * /quorum/...                                        (Raft state of the node, when loaded from its directory)
 * </pre>
 * Structured files (registration, data) hold one-line JSON objects; the others one plain value.
 */
public final class MetadataTree {
    /** The directory name of the cluster-wide broker config default (an empty resource name). */
    public static final String DEFAULT_BROKER = "<default>";

    private final ShellNode.Directory root;
    /** Nodes this tree has made so far: lookups make only the nodes on their path (tests count them). */
    private final AtomicLong nodesMade;

    private MetadataTree(ShellNode.Directory root, AtomicLong nodesMade) {
        this.root = root;
        this.nodesMade = nodesMade;
    }

    /**
     * The tree of {@code image}; {@code quorumFacts} (name to value) become files under {@code /quorum}, which is
     * left out when there are none. Topics, topic ids, partitions and config resources are directories made on
     * lookup from the image, so a command touches only the nodes on its path, whatever the image's size.
     */
    public static MetadataTree of(MetadataImage image, Map<String, String> quorumFacts) {
        AtomicLong made = new AtomicLong();
        Map<String, ShellNode> top = new HashMap<>();
        top.put("brokers", brokers(image));
        top.put("topics", new ShellNode.Directory(() -> image.topics().topicsByName().keySet(), name -> {
            TopicImage topic = image.topics().topic(name);
            return topic == null ? null : topic(topic, made);
        }));
        top.put("topicIds", new ShellNode.Directory(
                () -> image.topics().topicsById().keySet().stream().map(KafkaIds::text).toList(), text -> {
                    TopicImage topic = KafkaIds.parse(text).map(id -> image.topics().topic(id)).orElse(null);
                    return topic == null ? null : topic(topic, made);
                }));
        top.put("configs", configs(image, made));
        Map<String, ShellNode> features = new HashMap<>();
        image.features().finalizedLevels().forEach((name, level) -> features.put(name, file(level)));
        top.put("features", new ShellNode.Directory(features));
        top.put("producerIds", new ShellNode.Directory(Map.of("nextProducerId",
                file(image.producerIds().nextProducerId()))));
        top.put("transactions", new ShellNode.Directory(() -> image.transactions().transactions().keySet(), id -> {
            TransactionMetadata txn = image.transactions().transaction(id);
            return txn == null ? null : new ShellNode.File(transaction(image, txn));
        }));
        top.put("acls", new ShellNode.Directory(
                () -> image.acls().acls().keySet().stream().map(KafkaIds::text).toList(), text -> {
                    StandardAcl acl = KafkaIds.parse(text).map(id -> image.acls().acls().get(id)).orElse(null);
                    return acl == null ? null : new ShellNode.File(acl(acl));
                }));
        top.put("scram", scram(image));
        Map<String, ShellNode> clientQuotas = new HashMap<>();
        image.clientQuotas().quotas().forEach((entity, values) -> {
            Map<String, ShellNode> keys = new HashMap<>();
            values.forEach((key, value) -> keys.put(key, file(value)));
            clientQuotas.put(entity.toString().replace(", ", ","), new ShellNode.Directory(keys));
        });
        top.put("clientQuotas", new ShellNode.Directory(clientQuotas));
        top.put("image", new ShellNode.Directory(Map.of("offset", file(image.offset()), "epoch",
                file(image.epoch()))));
        if (!quorumFacts.isEmpty()) {
            Map<String, ShellNode> quorum = new HashMap<>();
            quorumFacts.forEach((name, value) -> quorum.put(name, new ShellNode.File(value)));
            top.put("quorum", new ShellNode.Directory(quorum));
        }
        return new MetadataTree(new ShellNode.Directory(top), made);
    }

    public ShellNode.Directory root() {
        return root;
    }

    /** How many topic, partition and config nodes lookups have made so far. */
    long nodesMade() {
        return nodesMade.get();
    }

    /** The node at the absolute path given as components, if there is one. */
    public Optional<ShellNode> find(List<String> components) {
        ShellNode node = root;
        for (String name : components) {
            ShellNode child = node instanceof ShellNode.Directory directory ? directory.child(name) : null;
            if (child == null) {
                return Optional.empty();
            }
            node = child;
        }
        return Optional.of(node);
    }

    private static ShellNode.Directory scram(MetadataImage image) {
        Map<String, Map<String, ShellNode>> byMechanism = new HashMap<>();
        image.scram().credentials().values().forEach(credential -> byMechanism
                .computeIfAbsent(credential.mechanism().mechanismName(), m -> new HashMap<>())
                .put(credential.user(), new ShellNode.File(Json.object(Map.of("iterations", credential.iterations())))));
        Map<String, ShellNode> mechanisms = new HashMap<>();
        byMechanism.forEach((mechanism, users) -> mechanisms.put(mechanism, new ShellNode.Directory(users)));
        return new ShellNode.Directory(mechanisms);
    }

    private static ShellNode.Directory brokers(MetadataImage image) {
        Map<String, ShellNode> brokers = new HashMap<>();
        for (BrokerRegistration broker : image.cluster().brokers().values()) {
            brokers.put(Integer.toString(broker.id()), new ShellNode.Directory(Map.of(
                    "registration", new ShellNode.File(registration(broker)),
                    "isFenced", file(broker.fenced()),
                    "inControlledShutdown", file(broker.inControlledShutdown()))));
        }
        return new ShellNode.Directory(brokers);
    }

    private static String registration(BrokerRegistration broker) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("id", broker.id());
        fields.put("epoch", broker.epoch());
        fields.put("incarnationId", KafkaIds.text(broker.incarnationId()));
        fields.put("listeners", broker.listeners().stream().map(MetadataTree::endpoint).toList());
        fields.put("rack", broker.rack());
        fields.put("fenced", broker.fenced());
        fields.put("inControlledShutdown", broker.inControlledShutdown());
        return Json.object(fields);
    }

    private static Map<String, Object> endpoint(Endpoint endpoint) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", endpoint.name());
        fields.put("host", endpoint.host());
        fields.put("port", endpoint.port());
        fields.put("securityProtocol", endpoint.securityProtocol());
        return fields;
    }

    private static ShellNode.Directory topic(TopicImage topic, AtomicLong made) {
        made.incrementAndGet();
        return new ShellNode.Directory(() -> {
            List<String> names = new ArrayList<>(topic.partitions().size() + 2);
            names.add("id");
            names.add("name");
            topic.partitions().keySet().forEach(partitionId -> names.add(Integer.toString(partitionId)));
            return names;
        }, name -> switch (name) {
            case "id" -> new ShellNode.File(KafkaIds.text(topic.id()));
            case "name" -> new ShellNode.File(topic.name());
            default -> {
                PartitionRegistration partition = partitionId(name).map(topic::partition).orElse(null);
                if (partition == null) {
                    yield null;
                }
                made.incrementAndGet();
                yield new ShellNode.Directory(Map.of("data", new ShellNode.File(partitionData(partition))));
            }
        });
    }

    private static Optional<Integer> partitionId(String name) {
        try {
            return Optional.of(Integer.parseInt(name));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String acl(StandardAcl acl) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("resourceType", acl.resourceType().name());
        fields.put("resourceName", acl.resourceName());
        fields.put("patternType", acl.patternType().name());
        fields.put("principal", acl.principal());
        fields.put("host", acl.host());
        fields.put("operation", acl.operation().name());
        fields.put("permissionType", acl.permissionType().name());
        return Json.object(fields);
    }

    private static String transaction(MetadataImage image, TransactionMetadata txn) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("transactionalId", txn.transactionalId());
        fields.put("producerId", txn.producerId());
        fields.put("producerEpoch", (int) txn.producerEpoch());
        fields.put("previousProducerId", txn.previousProducerId());
        fields.put("previousProducerEpoch", (int) txn.previousProducerEpoch());
        fields.put("state", txn.state().kafkaName());
        fields.put("timeoutMs", txn.timeoutMs());
        fields.put("startTimeMs", txn.startTimeMs());
        fields.put("updateTimeMs", txn.updateTimeMs());
        fields.put("coordinatorEpoch", txn.coordinatorEpoch());
        fields.put("partitions", txn.partitions().stream().map(p -> {
            TopicImage topic = image.topics().topic(p.topicId());
            return (topic == null ? KafkaIds.text(p.topicId()) : topic.name()) + "-" + p.partition();
        }).sorted().toList());
        fields.put("groups", txn.groups().stream().sorted().toList());
        return Json.object(fields);
    }

    private static String partitionData(PartitionRegistration partition) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("replicas", partition.replicas());
        fields.put("isr", partition.isr());
        fields.put("leader", partition.leader());
        fields.put("leaderEpoch", partition.leaderEpoch());
        fields.put("partitionEpoch", partition.partitionEpoch());
        if (!partition.directories().isEmpty()) {
            // Each replica's log directory (KIP-858), as its directory.id; AAAAAAAAAAAAAAAAAAAAAA where unknown.
            fields.put("directories", partition.directories().stream().map(KafkaIds::text).toList());
        }
        if (partition.isReassigning()) {
            fields.put("addingReplicas", partition.addingReplicas());
            fields.put("removingReplicas", partition.removingReplicas());
        }
        if (!partition.elr().isEmpty() || !partition.lastKnownElr().isEmpty()) {
            fields.put("eligibleLeaderReplicas", partition.elr());
            fields.put("lastKnownElr", partition.lastKnownElr());
        }
        return Json.object(fields);
    }

    private static ShellNode.Directory configs(MetadataImage image, AtomicLong made) {
        Map<String, ShellNode> types = new HashMap<>();
        for (ConfigResource.Type type : ConfigResource.Type.values()) {
            types.put(type.name().toLowerCase(Locale.ROOT), new ShellNode.Directory(
                    () -> image.configs().configs().keySet().stream().filter(resource -> resource.type() == type)
                            .map(resource -> resource.name().isEmpty() ? DEFAULT_BROKER : resource.name()).toList(),
                    name -> {
                        ConfigResource resource = new ConfigResource(type, name.equals(DEFAULT_BROKER) ? "" : name);
                        Map<String, String> keys = image.configs().configs().get(resource);
                        if (keys == null) {
                            return null;
                        }
                        made.incrementAndGet();
                        Map<String, ShellNode> files = new HashMap<>();
                        keys.forEach((key, value) -> files.put(key, new ShellNode.File(value)));
                        return new ShellNode.Directory(files);
                    }));
        }
        return new ShellNode.Directory(types);
    }

    private static ShellNode.File file(Object value) {
        return new ShellNode.File(String.valueOf(value));
    }
}
