package io.kraft.metadata.authorizer;

/**
 * Which ACLs DescribeAcls and DeleteAcls mean (Kafka's AclBindingFilter): a resource filter (ANY type; a null name
 * for any name; pattern type ANY for patterns of any type with exactly that name, MATCH for every pattern that
 * applies to a resource of that name, including {@code *} and prefixes) and an entry filter (null principal or host
 * for any, operation and permission ANY for any).
 */
public record AclFilter(ResourceType resourceType, String resourceName, PatternType patternType, String principal,
                        String host, AclOperation operation, AclPermissionType permissionType) {

    /** Every ACL. */
    public static final AclFilter ANY = new AclFilter(ResourceType.ANY, null, PatternType.ANY, null, null,
            AclOperation.ANY, AclPermissionType.ANY);

    /** Why this filter cannot be used, or null if it can: no field may be UNKNOWN. */
    public String invalidReason() {
        if (resourceType == ResourceType.UNKNOWN) {
            return "Invalid resource type in the ACL filter";
        }
        if (patternType == PatternType.UNKNOWN) {
            return "Invalid pattern type in the ACL filter";
        }
        if (operation == AclOperation.UNKNOWN) {
            return "Invalid operation in the ACL filter";
        }
        if (permissionType == AclPermissionType.UNKNOWN) {
            return "Invalid permission type in the ACL filter";
        }
        return null;
    }

    public boolean matches(StandardAcl acl) {
        return matchesResource(acl) && matchesEntry(acl);
    }

    private boolean matchesResource(StandardAcl acl) {
        if (resourceType != ResourceType.ANY && resourceType != acl.resourceType()) {
            return false;
        }
        if (patternType != PatternType.ANY && patternType != PatternType.MATCH && patternType != acl.patternType()) {
            return false;
        }
        if (resourceName == null) {
            return true;
        }
        if (patternType != PatternType.MATCH) {
            return resourceName.equals(acl.resourceName());
        }
        return switch (acl.patternType()) {
            case LITERAL -> resourceName.equals(acl.resourceName()) || acl.resourceName().equals(StandardAcl.WILDCARD);
            case PREFIXED -> resourceName.startsWith(acl.resourceName());
            default -> false;
        };
    }

    private boolean matchesEntry(StandardAcl acl) {
        return (principal == null || principal.equals(acl.principal()))
                && (host == null || host.equals(acl.host()))
                && (operation == AclOperation.ANY || operation == acl.operation())
                && (permissionType == AclPermissionType.ANY || permissionType == acl.permissionType());
    }
}
