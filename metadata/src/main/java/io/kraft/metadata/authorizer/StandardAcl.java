package io.kraft.metadata.authorizer;

import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.AccessControlEntryRecord;
import java.util.Objects;
import java.util.UUID;

/**
 * One ACL: a principal ({@code User:alice}, or {@code User:*} for everyone) from a host ({@code *} for any) is allowed
 * or denied an operation on the resources a pattern names. What an {@link AccessControlEntryRecord} carries, without
 * its id.
 */
public record StandardAcl(ResourceType resourceType, String resourceName, PatternType patternType, String principal,
                          String host, AclOperation operation, AclPermissionType permissionType) {
    /** The resource name and host that match every resource and host; also the principal name of everyone. */
    public static final String WILDCARD = "*";
    /** The principal that matches every principal. */
    public static final String WILDCARD_PRINCIPAL = "User:*";
    /** The only name of the cluster resource. */
    public static final String CLUSTER_NAME = "kafka-cluster";

    public StandardAcl {
        Objects.requireNonNull(resourceType, "resourceType");
        Objects.requireNonNull(resourceName, "resourceName");
        Objects.requireNonNull(patternType, "patternType");
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(permissionType, "permissionType");
    }

    /**
     * Why this ACL may not be created, as Kafka words it, or null if it may: every field must be concrete, the
     * principal of the form type:name, the resource name not empty, and the cluster's name {@code kafka-cluster}.
     */
    public String invalidReason() {
        if (!resourceType.isConcrete()) {
            return "Invalid resource type " + resourceType;
        }
        if (!patternType.isSpecific()) {
            return "Invalid pattern type " + patternType;
        }
        if (!operation.isConcrete()) {
            return "Invalid operation " + operation;
        }
        if (!permissionType.isConcrete()) {
            return "Invalid permission type " + permissionType;
        }
        if (resourceName.isEmpty()) {
            return "Resource name should not be empty";
        }
        if (resourceType == ResourceType.CLUSTER && !resourceName.equals(CLUSTER_NAME)) {
            return "The only valid name for the CLUSTER resource is " + CLUSTER_NAME;
        }
        int colon = principal.indexOf(':');
        if (colon <= 0 || colon == principal.length() - 1) {
            return "Could not parse principal from `" + principal + "` (no colon is found separating the principal"
                    + " type from the principal name)";
        }
        if (host.isEmpty()) {
            return "Invalid host: it may not be empty";
        }
        return null;
    }

    /** Whether this ACL names {@code principalType:principalName}, or everyone; without building the joined form. */
    boolean matchesPrincipal(String principalType, String principalName) {
        if (principal.equals(WILDCARD_PRINCIPAL)) {
            return true;
        }
        int typeLength = principalType.length();
        return principal.length() == typeLength + 1 + principalName.length()
                && principal.startsWith(principalType) && principal.charAt(typeLength) == ':'
                && principal.endsWith(principalName);
    }

    public AccessControlEntryRecord toRecord(UUID id) {
        return AccessControlEntryRecord.newBuilder()
                .setId(Uuids.toProto(id))
                .setResourceType(resourceType.code())
                .setResourceName(resourceName)
                .setPatternType(patternType.code())
                .setPrincipal(principal)
                .setHost(host)
                .setOperation(operation.code())
                .setPermissionType(permissionType.code())
                .build();
    }

    public static StandardAcl fromRecord(AccessControlEntryRecord record) {
        return new StandardAcl(ResourceType.fromCode(record.getResourceType()), record.getResourceName(),
                PatternType.fromCode(record.getPatternType()), record.getPrincipal(), record.getHost(),
                AclOperation.fromCode(record.getOperation()), AclPermissionType.fromCode(record.getPermissionType()));
    }

    /** kafka-acls.sh's form: the pattern, then the entry. */
    @Override
    public String toString() {
        return "ResourcePattern(resourceType=" + resourceType + ", name=" + resourceName + ", patternType="
                + patternType + ") (principal=" + principal + ", host=" + host + ", operation=" + operation
                + ", permissionType=" + permissionType + ")";
    }
}
