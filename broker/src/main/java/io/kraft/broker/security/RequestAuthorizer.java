package io.kraft.broker.security;

import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.AuthorizerConfig;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.metadata.authorizer.StandardAuthorizer;
import io.kraft.metadata.image.AclsImage;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's authorizer: decides a connection's requests with the {@link StandardAuthorizer}, which follows the
 * ACLs of the node's metadata image (this is the publisher that feeds it), and logs each denial as one line on
 * Kafka's {@code kafka.authorizer.logger}. A broker without {@code authorizer.class.name} has none, and its handlers
 * check nothing.
 */
public final class RequestAuthorizer implements MetadataPublisher {
    private static final Logger AUTHORIZER_LOG = LoggerFactory.getLogger("kafka.authorizer.logger");

    private static final Map<ResourceType, Set<AclOperation>> SUPPORTED_OPERATIONS = Map.of(
            ResourceType.TOPIC, EnumSet.of(AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE,
                    AclOperation.DESCRIBE, AclOperation.DELETE, AclOperation.ALTER, AclOperation.DESCRIBE_CONFIGS,
                    AclOperation.ALTER_CONFIGS),
            ResourceType.GROUP, EnumSet.of(AclOperation.READ, AclOperation.DESCRIBE, AclOperation.DELETE,
                    AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS),
            ResourceType.CLUSTER, EnumSet.of(AclOperation.CREATE, AclOperation.CLUSTER_ACTION,
                    AclOperation.DESCRIBE_CONFIGS, AclOperation.ALTER_CONFIGS, AclOperation.IDEMPOTENT_WRITE,
                    AclOperation.ALTER, AclOperation.DESCRIBE),
            ResourceType.TRANSACTIONAL_ID, EnumSet.of(AclOperation.DESCRIBE, AclOperation.WRITE,
                    AclOperation.TWO_PHASE_COMMIT));

    /** Kafka's value of an authorized-operations field the client did not ask for. */
    public static final int AUTHORIZED_OPERATIONS_OMITTED = Integer.MIN_VALUE;

    private final StandardAuthorizer authorizer;
    /** The ACLs of the last image published; only the publisher thread touches it. */
    private AclsImage published = AclsImage.EMPTY;

    public RequestAuthorizer(AuthorizerConfig config) {
        this.authorizer = new StandardAuthorizer(config);
    }

    /**
     * The authorizer the node's properties ask for, or empty without {@code authorizer.class.name}.
     *
     * @throws io.kraft.config.ConfigException for an unknown class name or a malformed {@code super.users}
     */
    public static Optional<RequestAuthorizer> fromProperties(Map<String, String> properties) {
        return AuthorizerConfig.fromProperties(properties).map(RequestAuthorizer::new);
    }

    /** Whether the principal may do {@code operation} on the resource; a denial is logged. */
    public boolean authorize(KafkaPrincipal principal, SocketAddress client, AclOperation operation,
                             ResourceType type, String name) {
        if (authorizer.authorize(principal.type(), principal.name(), address(client), operation, type, name)) {
            return true;
        }
        AUTHORIZER_LOG.info("Principal = {} is Denied operation = {} from host = {} on resource = {}:{}", principal,
                operation, host(client), type.displayName(), name);
        return false;
    }

    /** As {@link #authorize}, without logging a denial: for lists that just leave out what may not be seen. */
    public boolean authorizeQuietly(KafkaPrincipal principal, SocketAddress client, AclOperation operation,
                                    ResourceType type, String name) {
        return authorizer.authorize(principal.type(), principal.name(), address(client), operation, type, name);
    }

    /** Whether the principal may do {@code operation} on some resource of {@code type} (KIP-679); logs a denial. */
    public boolean authorizeAny(KafkaPrincipal principal, SocketAddress client, AclOperation operation,
                                ResourceType type) {
        if (authorizer.authorizeAny(principal.type(), principal.name(), address(client), operation, type)) {
            return true;
        }
        AUTHORIZER_LOG.info("Principal = {} is Denied operation = {} from host = {} on any resource of type {}",
                principal, operation, host(client), type.displayName());
        return false;
    }

    /** Kafka's authorized-operations bit field (bit n for operation code n) of the principal on one resource. */
    public int authorizedOperations(KafkaPrincipal principal, SocketAddress client, ResourceType type, String name) {
        return bitField(SUPPORTED_OPERATIONS.get(type), operation -> authorizeQuietly(principal, client, operation,
                type, name));
    }

    /** The bit field of every operation a resource type supports: the answer when no authorizer is configured. */
    public static int allOperations(ResourceType type) {
        return bitField(SUPPORTED_OPERATIONS.get(type), operation -> true);
    }

    private static int bitField(Set<AclOperation> operations, java.util.function.Predicate<AclOperation> allowed) {
        int bits = 0;
        for (AclOperation operation : operations) {
            if (allowed.test(operation)) {
                bits |= 1 << operation.code();
            }
        }
        return bits;
    }

    private static InetAddress address(SocketAddress client) {
        return client instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }

    private static String host(SocketAddress client) {
        InetAddress address = address(client);
        return address == null ? null : address.getHostAddress();
    }

    @Override
    public void publish(MetadataDelta delta, MetadataImage image) {
        if (delta.image().acls() == published && !delta.hasAclChanges()) {
            return;
        }
        if (delta.image().acls() == published) {
            authorizer.apply(delta.aclsDelta());
        } else {
            // A delta that does not start from what this authorizer holds (a snapshot load starts from the empty
            // image): take the image's ACLs whole.
            authorizer.load(image.acls());
        }
        published = image.acls();
    }

    /** How many ACLs decisions see now. */
    public int aclCount() {
        return authorizer.aclCount();
    }

    /** The StandardAuthorizer's settings. */
    public AuthorizerConfig config() {
        return authorizer.config();
    }
}
