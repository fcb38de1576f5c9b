package io.kraft.metadata.authorizer;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The ACLs arranged for decisions: per resource type, literal patterns by name (a hash lookup for the name and one
 * for {@code *}) and prefixed patterns in a sorted map, where the prefixes of a name are found by walking down from
 * the name's floor entry, so a decision costs a few lookups however many ACLs there are. One writer (the metadata
 * publisher) changes it per ACL while any number of request threads read it; each name's ACLs are an array replaced
 * whole, so a reader sees every name's ACLs either before or after a change.
 */
public final class AclIndex {
    /** What the ACLs on a resource say about one request. */
    public enum Verdict { ALLOW, DENY, NO_MATCHING_ACL }

    private static final class ByType {
        final ConcurrentHashMap<String, StandardAcl[]> literal = new ConcurrentHashMap<>();
        final ConcurrentSkipListMap<String, StandardAcl[]> prefixed = new ConcurrentSkipListMap<>();

        Map<String, StandardAcl[]> patterns(PatternType type) {
            return type == PatternType.PREFIXED ? prefixed : literal;
        }
    }

    private final ByType[] byType = new ByType[ResourceType.values().length];
    private final Map<UUID, StandardAcl> byId = new ConcurrentHashMap<>();

    public AclIndex() {
        for (ResourceType type : ResourceType.values()) {
            byType[type.code()] = new ByType();
        }
    }

    /** Adds (or replaces) the ACL with this id. Single writer. */
    public void put(UUID id, StandardAcl acl) {
        StandardAcl previous = byId.put(id, acl);
        if (previous != null) {
            removeFromPatterns(previous);
        }
        byType[acl.resourceType().code()].patterns(acl.patternType()).merge(acl.resourceName(),
                new StandardAcl[] {acl}, (old, added) -> {
                    StandardAcl[] grown = Arrays.copyOf(old, old.length + 1);
                    grown[old.length] = added[0];
                    return grown;
                });
    }

    /** Removes the ACL with this id, if present. Single writer. */
    public void remove(UUID id) {
        StandardAcl removed = byId.remove(id);
        if (removed != null) {
            removeFromPatterns(removed);
        }
    }

    private void removeFromPatterns(StandardAcl acl) {
        byType[acl.resourceType().code()].patterns(acl.patternType()).computeIfPresent(acl.resourceName(),
                (name, old) -> {
                    int at = Arrays.asList(old).indexOf(acl);
                    if (at < 0) {
                        return old;
                    }
                    if (old.length == 1) {
                        return null;
                    }
                    StandardAcl[] shrunk = new StandardAcl[old.length - 1];
                    System.arraycopy(old, 0, shrunk, 0, at);
                    System.arraycopy(old, at + 1, shrunk, at, old.length - at - 1);
                    return shrunk;
                });
    }

    /** How many ACLs there are. */
    public int size() {
        return byId.size();
    }

    /** Every ACL by id (a live view). */
    public Map<UUID, StandardAcl> acls() {
        return byId;
    }

    /**
     * What the ACLs of resource {@code name} of {@code type} say about {@code principalType:principalName} from
     * {@code host} doing {@code operation}: a matching DENY wins over any ALLOW; NO_MATCHING_ACL when no ACL at all
     * (for anyone) applies to the resource.
     */
    public Verdict decide(String principalType, String principalName, String host, AclOperation operation,
                          ResourceType type, String name) {
        return decide(new Scan(principalType, principalName, host, null, operation), type, name);
    }

    /** As the other {@code decide}, with the client's address: its text form is made only if an ACL names a host. */
    public Verdict decide(String principalType, String principalName, InetAddress client, AclOperation operation,
                          ResourceType type, String name) {
        return decide(new Scan(principalType, principalName, null, client, operation), type, name);
    }

    private Verdict decide(Scan scan, ResourceType type, String name) {
        ByType patterns = byType[type.code()];
        if (scan.denied(patterns.literal.get(name))
                || (!name.equals(StandardAcl.WILDCARD) && scan.denied(patterns.literal.get(StandardAcl.WILDCARD)))
                || deniedByPrefixes(patterns.prefixed, name, scan)) {
            return Verdict.DENY;
        }
        return scan.allowed ? Verdict.ALLOW : scan.found ? Verdict.DENY : Verdict.NO_MATCHING_ACL;
    }

    // The prefixes of name in the map, longest first: the floor entry of name is either a prefix of it, or shares
    // some leading characters with it, and every shorter prefix of name sorts at or below those shared characters.
    private static boolean deniedByPrefixes(ConcurrentNavigableMap<String, StandardAcl[]> prefixed, String name,
                                            Scan scan) {
        if (prefixed.isEmpty()) {
            return false;
        }
        Map.Entry<String, StandardAcl[]> entry = prefixed.floorEntry(name);
        while (entry != null) {
            String key = entry.getKey();
            if (name.startsWith(key)) {
                if (scan.denied(entry.getValue())) {
                    return true;
                }
                entry = prefixed.lowerEntry(key);
            } else {
                int common = commonPrefixLength(key, name);
                if (common == 0) {
                    return false;
                }
                entry = prefixed.floorEntry(name.substring(0, common));
            }
        }
        return false;
    }

    private static int commonPrefixLength(String a, String b) {
        int max = Math.min(a.length(), b.length());
        int i = 0;
        while (i < max && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return i;
    }

    /**
     * Whether the principal may do {@code operation} on some resource of {@code type} (Kafka's authorizeByResourceType,
     * KIP-679: an idempotent producer needs WRITE on some topic): an ALLOW that applies to it and that no DENY of
     * the principal covers. Walks the type's ACLs; callers use it for rare requests only.
     */
    public boolean allowedOnSomeResource(String principalType, String principalName, String host,
                                         InetAddress client, AclOperation operation, ResourceType type) {
        ByType patterns = byType[type.code()];
        Scan scan = new Scan(principalType, principalName, host, client, operation);
        if (scan.denied(patterns.literal.get(StandardAcl.WILDCARD))) {
            return false;
        }
        for (Map.Entry<String, StandardAcl[]> entry : patterns.literal.entrySet()) {
            if (anyAllow(entry.getValue(), scan)) {
                String name = entry.getKey();
                if (!scan.denied(patterns.literal.get(name)) && !deniedByPrefixes(patterns.prefixed, name, scan)) {
                    return true;
                }
            }
        }
        for (Map.Entry<String, StandardAcl[]> entry : patterns.prefixed.entrySet()) {
            if (anyAllow(entry.getValue(), scan) && !deniedByPrefixes(patterns.prefixed, entry.getKey(), scan)) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyAllow(StandardAcl[] acls, Scan scan) {
        for (StandardAcl acl : acls) {
            if (acl.permissionType() == AclPermissionType.ALLOW && scan.applies(acl)
                    && acl.operation().allows(scan.operation)) {
                return true;
            }
        }
        return false;
    }

    /** The ACLs seen so far for one decision. */
    private static final class Scan {
        final String principalType;
        final String principalName;
        final InetAddress client;
        final AclOperation operation;
        /** The client's address as text; made from {@link #client} the first time an ACL names a host. */
        String host;
        boolean found;
        boolean allowed;

        Scan(String principalType, String principalName, String host, InetAddress client, AclOperation operation) {
            this.principalType = principalType;
            this.principalName = principalName;
            this.host = host;
            this.client = client;
            this.operation = operation;
        }

        boolean applies(StandardAcl acl) {
            if (!acl.matchesPrincipal(principalType, principalName)) {
                return false;
            }
            if (acl.host().equals(StandardAcl.WILDCARD)) {
                return true;
            }
            if (host == null && client != null) {
                host = client.getHostAddress();
            }
            return acl.host().equals(host);
        }

        /** Notes what {@code acls} allow; true as soon as one denies. */
        boolean denied(StandardAcl[] acls) {
            if (acls == null) {
                return false;
            }
            for (StandardAcl acl : acls) {
                found = true;
                if (!applies(acl)) {
                    continue;
                }
                if (acl.permissionType() == AclPermissionType.DENY) {
                    if (acl.operation().denies(operation)) {
                        return true;
                    }
                } else if (acl.operation().allows(operation)) {
                    allowed = true;
                }
            }
            return false;
        }
    }
}
