package io.kraft.cli.quotas;

import io.kraft.cli.client.ConfigAssignments;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;

/**
 * Client quotas of one entity (a user, a client id or an ip, by name or the default) through the Admin client's
 * AlterClientQuotas and DescribeClientQuotas, with kafka-configs.sh's messages.
 */
public final class QuotaConfigs {
    private final String entityType;
    private final String name;

    /**
     * @param entityTypeOption kafka-configs.sh's {@code --entity-type}: users, clients or ips
     * @param name the entity's name, or null for {@code --entity-default}
     */
    public QuotaConfigs(String entityTypeOption, String name) {
        this.entityType = entityType(entityTypeOption);
        this.name = name;
    }

    /** Whether {@code --entity-type} names a client quota entity. */
    public static boolean isQuotaEntityType(String entityTypeOption) {
        return entityType(entityTypeOption) != null;
    }

    private static String entityType(String option) {
        return switch (option) {
            case "users" -> ClientQuotaEntity.USER;
            case "clients" -> ClientQuotaEntity.CLIENT_ID;
            case "ips" -> ClientQuotaEntity.IP;
            default -> null;
        };
    }

    /**
     * The ops of {@code --add-config} (values must be numbers) and {@code --delete-config}.
     *
     * @throws IllegalArgumentException naming a value that is not a number
     */
    public List<ClientQuotaAlteration.Op> ops(String addConfig, String deleteConfig) {
        List<ClientQuotaAlteration.Op> ops = new ArrayList<>();
        if (addConfig != null) {
            ConfigAssignments.parse(addConfig).forEach((key, value) -> {
                try {
                    ops.add(new ClientQuotaAlteration.Op(key, Double.parseDouble(value)));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("Cannot parse quota configuration value for " + key + ": "
                            + value);
                }
            });
        }
        if (deleteConfig != null) {
            ConfigAssignments.keys(deleteConfig).forEach(key -> ops.add(new ClientQuotaAlteration.Op(key, null)));
        }
        return ops;
    }

    public void alter(Admin admin, List<ClientQuotaAlteration.Op> ops, PrintWriter out)
            throws InterruptedException, ExecutionException {
        ClientQuotaEntity entity = new ClientQuotaEntity(Collections.singletonMap(entityType, name));
        admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity, ops))).all().get();
        out.println(name == null ? "Completed updating default config for " + noun() + "s in the cluster."
                : "Completed updating config for " + noun() + " " + name + ".");
    }

    public void describe(Admin admin, PrintWriter out) throws InterruptedException, ExecutionException {
        ClientQuotaFilterComponent component = name == null ? ClientQuotaFilterComponent.ofDefaultEntity(entityType)
                : ClientQuotaFilterComponent.ofEntity(entityType, name);
        Map<ClientQuotaEntity, Map<String, Double>> quotas = admin.describeClientQuotas(
                ClientQuotaFilter.containsOnly(List.of(component))).entities().get();
        quotas.forEach((entity, values) -> {
            String entityText = entity.entries().entrySet().stream()
                    .map(entry -> entry.getValue() == null ? "the default " + typeName(entry.getKey())
                            : typeName(entry.getKey()) + " '" + entry.getValue() + "'")
                    .collect(Collectors.joining(", "));
            String valuesText = new TreeMap<>(values).entrySet().stream()
                    .map(entry -> entry.getKey() + "=" + entry.getValue()).collect(Collectors.joining(", "));
            out.println("Quota configs for " + entityText + " are " + valuesText);
        });
    }

    private String noun() {
        return switch (entityType) {
            case ClientQuotaEntity.USER -> "user";
            case ClientQuotaEntity.CLIENT_ID -> "client";
            default -> "ip";
        };
    }

    private static String typeName(String entityType) {
        return switch (entityType) {
            case ClientQuotaEntity.USER -> "user-principal";
            case ClientQuotaEntity.CLIENT_ID -> "client-id";
            default -> entityType;
        };
    }
}
