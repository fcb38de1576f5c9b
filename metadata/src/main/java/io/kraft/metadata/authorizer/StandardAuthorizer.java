package io.kraft.metadata.authorizer;

import io.kraft.metadata.image.AclsDelta;
import io.kraft.metadata.image.AclsImage;
import java.net.InetAddress;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Decides requests as Kafka's StandardAuthorizer does: super users may do anything; otherwise a matching DENY wins,
 * then a matching ALLOW (with the implied operations); a resource no ACL names is open only with
 * {@code allow.everyone.if.no.acl.found}. Follows the metadata image's ACLs ({@link #apply}); decisions are
 * thread-safe and take no lock.
 */
public final class StandardAuthorizer {
    private final AuthorizerConfig config;
    private final AclIndex index = new AclIndex();
    private final String[] superUsers;

    public StandardAuthorizer(AuthorizerConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.superUsers = config.superUsers().toArray(String[]::new);
    }

    public AuthorizerConfig config() {
        return config;
    }

    /**
     * Whether {@code principalType:principalName} from {@code host} (an IP address in text form) may do
     * {@code operation} on the resource.
     */
    public boolean authorize(String principalType, String principalName, String host, AclOperation operation,
                             ResourceType type, String name) {
        return isSuperUser(principalType, principalName)
                || allowed(index.decide(principalType, principalName, host, operation, type, name));
    }

    /** As the other {@code authorize}, from the client's address (turned into text only if an ACL names a host). */
    public boolean authorize(String principalType, String principalName, InetAddress client, AclOperation operation,
                             ResourceType type, String name) {
        return isSuperUser(principalType, principalName)
                || allowed(index.decide(principalType, principalName, client, operation, type, name));
    }

    private boolean allowed(AclIndex.Verdict verdict) {
        return switch (verdict) {
            case ALLOW -> true;
            case DENY -> false;
            case NO_MATCHING_ACL -> config.allowEveryoneIfNoAclFound();
        };
    }

    /** Whether the principal may do {@code operation} on at least one resource of {@code type} (KIP-679). */
    public boolean authorizeAny(String principalType, String principalName, String host, AclOperation operation,
                                ResourceType type) {
        return isSuperUser(principalType, principalName)
                || index.allowedOnSomeResource(principalType, principalName, host, null, operation, type);
    }

    /** As the other {@code authorizeAny}, from the client's address. */
    public boolean authorizeAny(String principalType, String principalName, InetAddress client,
                                AclOperation operation, ResourceType type) {
        return isSuperUser(principalType, principalName)
                || index.allowedOnSomeResource(principalType, principalName, null, client, operation, type);
    }

    private boolean isSuperUser(String principalType, String principalName) {
        for (String superUser : superUsers) {
            int typeLength = principalType.length();
            if (superUser.length() == typeLength + 1 + principalName.length() && superUser.startsWith(principalType)
                    && superUser.charAt(typeLength) == ':' && superUser.endsWith(principalName)) {
                return true;
            }
        }
        return false;
    }

    /** Takes the image's ACLs as a whole (the first image a node loads). */
    public void load(AclsImage image) {
        for (UUID id : Map.copyOf(index.acls()).keySet()) {
            if (!image.acls().containsKey(id)) {
                index.remove(id);
            }
        }
        image.acls().forEach(index::put);
    }

    /** Applies what a delta changed: the ACLs it created and deleted. */
    public void apply(AclsDelta delta) {
        delta.changes().forEach((id, acl) -> {
            if (acl == null) {
                index.remove(id);
            } else {
                index.put(id, acl);
            }
        });
    }

    /** How many ACLs the authorizer holds. */
    public int aclCount() {
        return index.size();
    }
}
