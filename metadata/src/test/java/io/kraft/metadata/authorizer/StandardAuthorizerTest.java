package io.kraft.metadata.authorizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.ConfigException;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.RemoveAccessControlEntryRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The StandardAuthorizer's decisions, as Kafka's documentation states them, over ACLs applied from metadata deltas. */
class StandardAuthorizerTest {
    private static final String HOST = "10.0.0.1";

    private MetadataImage image = MetadataImage.EMPTY;
    private long offset = 1;

    private StandardAuthorizer authorizer(boolean allowEveryone, String... superUsers) {
        return new StandardAuthorizer(new AuthorizerConfig(Set.of(superUsers), allowEveryone));
    }

    private static StandardAcl acl(ResourceType type, String name, PatternType pattern, String principal, String host,
                                   AclOperation operation, AclPermissionType permission) {
        return new StandardAcl(type, name, pattern, principal, host, operation, permission);
    }

    private static StandardAcl allowTopic(String name, PatternType pattern, String principal, AclOperation operation) {
        return acl(ResourceType.TOPIC, name, pattern, principal, "*", operation, AclPermissionType.ALLOW);
    }

    /** Applies the ACLs as committed records, the way a broker's publisher does; answers their ids. */
    private List<UUID> add(StandardAuthorizer authorizer, StandardAcl... acls) {
        MetadataDelta delta = new MetadataDelta(image);
        List<UUID> ids = new ArrayList<>();
        for (StandardAcl acl : acls) {
            UUID id = UUID.randomUUID();
            ids.add(id);
            delta.replay(MetadataRecords.of(acl.toRecord(id)), offset++, 1);
        }
        image = delta.apply();
        authorizer.apply(delta.aclsDelta());
        return ids;
    }

    private void remove(StandardAuthorizer authorizer, UUID id) {
        MetadataDelta delta = new MetadataDelta(image);
        delta.replay(MetadataRecords.of(RemoveAccessControlEntryRecord.newBuilder().setId(Uuids.toProto(id)).build()),
                offset++, 1);
        image = delta.apply();
        authorizer.apply(delta.aclsDelta());
    }

    private static boolean may(StandardAuthorizer authorizer, String user, AclOperation operation, ResourceType type,
                               String name) {
        return authorizer.authorize("User", user, HOST, operation, type, name);
    }

    @Test
    void aLiteralAclGrantsItsOperationOnItsResourceOnly() {
        StandardAuthorizer authorizer = authorizer(false);
        add(authorizer, allowTopic("orders", PatternType.LITERAL, "User:alice", AclOperation.READ));
        assertTrue(may(authorizer, "alice", AclOperation.READ, ResourceType.TOPIC, "orders"));
        assertFalse(may(authorizer, "alice", AclOperation.WRITE, ResourceType.TOPIC, "orders"));
        assertFalse(may(authorizer, "alice", AclOperation.READ, ResourceType.TOPIC, "orders2"));
        assertFalse(may(authorizer, "bob", AclOperation.READ, ResourceType.TOPIC, "orders"));
        assertFalse(may(authorizer, "alice", AclOperation.READ, ResourceType.GROUP, "orders"));
    }

    @Test
    void readWriteDeleteAndAlterImplyDescribeAndAlterConfigsImpliesDescribeConfigs() {
        StandardAuthorizer authorizer = authorizer(false);
        for (AclOperation op : List.of(AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER)) {
            add(authorizer, allowTopic("t-" + op, PatternType.LITERAL, "User:alice", op));
            assertTrue(may(authorizer, "alice", AclOperation.DESCRIBE, ResourceType.TOPIC, "t-" + op), op.name());
        }
        add(authorizer, allowTopic("c", PatternType.LITERAL, "User:alice", AclOperation.ALTER_CONFIGS));
        assertTrue(may(authorizer, "alice", AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, "c"));
        assertFalse(may(authorizer, "alice", AclOperation.DESCRIBE, ResourceType.TOPIC, "c"));
        add(authorizer, allowTopic("all", PatternType.LITERAL, "User:alice", AclOperation.ALL));
        for (AclOperation op : List.of(AclOperation.READ, AclOperation.WRITE, AclOperation.CREATE,
                AclOperation.ALTER_CONFIGS)) {
            assertTrue(may(authorizer, "alice", op, ResourceType.TOPIC, "all"), op.name());
        }
    }

    @Test
    void aPrefixedAclGrantsExactlyItsPrefix() {
        StandardAuthorizer authorizer = authorizer(false);
        add(authorizer, allowTopic("pay-", PatternType.PREFIXED, "User:alice", AclOperation.WRITE),
                allowTopic("pax", PatternType.PREFIXED, "User:alice", AclOperation.WRITE),
                allowTopic("p", PatternType.PREFIXED, "User:carol", AclOperation.WRITE));
        assertTrue(may(authorizer, "alice", AclOperation.WRITE, ResourceType.TOPIC, "pay-1"));
        assertTrue(may(authorizer, "alice", AclOperation.WRITE, ResourceType.TOPIC, "pay-"));
        assertFalse(may(authorizer, "alice", AclOperation.WRITE, ResourceType.TOPIC, "pay"));
        assertFalse(may(authorizer, "alice", AclOperation.WRITE, ResourceType.TOPIC, "payx"));
        assertFalse(may(authorizer, "alice", AclOperation.WRITE, ResourceType.TOPIC, "oay-1"));
        assertTrue(may(authorizer, "carol", AclOperation.WRITE, ResourceType.TOPIC, "payx"), "the shorter prefix p");
        assertTrue(may(authorizer, "alice", AclOperation.WRITE, ResourceType.TOPIC, "pax-1"));
    }

    @Test
    void denyWinsOverAllowAndAWildcardLiteralCoversEveryResource() {
        StandardAuthorizer authorizer = authorizer(false);
        add(authorizer, allowTopic("*", PatternType.LITERAL, "User:*", AclOperation.READ),
                acl(ResourceType.TOPIC, "secret-", PatternType.PREFIXED, "User:bob", "*", AclOperation.READ,
                        AclPermissionType.DENY));
        assertTrue(may(authorizer, "anyone", AclOperation.READ, ResourceType.TOPIC, "x"));
        assertTrue(may(authorizer, "bob", AclOperation.READ, ResourceType.TOPIC, "public"));
        assertFalse(may(authorizer, "bob", AclOperation.READ, ResourceType.TOPIC, "secret-1"));
        assertTrue(may(authorizer, "bob", AclOperation.DESCRIBE, ResourceType.TOPIC, "secret-1"),
                "a DENY of READ denies READ only; DESCRIBE is still implied by the ALLOW of READ");
    }

    @Test
    void hostsMatchExactlyOrByWildcard() throws Exception {
        StandardAuthorizer authorizer = authorizer(false);
        add(authorizer, acl(ResourceType.GROUP, "g", PatternType.LITERAL, "User:alice", HOST, AclOperation.READ,
                AclPermissionType.ALLOW));
        assertTrue(authorizer.authorize("User", "alice", HOST, AclOperation.READ, ResourceType.GROUP, "g"));
        assertFalse(authorizer.authorize("User", "alice", "10.0.0.2", AclOperation.READ, ResourceType.GROUP, "g"));
        assertTrue(authorizer.authorize("User", "alice", java.net.InetAddress.getByAddress(new byte[] {10, 0, 0, 1}),
                AclOperation.READ, ResourceType.GROUP, "g"), "a client address is compared in its text form");
        assertFalse(authorizer.authorize("User", "alice", java.net.InetAddress.getByAddress(new byte[] {10, 0, 0, 2}),
                AclOperation.READ, ResourceType.GROUP, "g"));
    }

    @Test
    void superUsersMayDoAnything() {
        StandardAuthorizer authorizer = authorizer(false, "User:admin");
        assertTrue(may(authorizer, "admin", AclOperation.ALTER, ResourceType.CLUSTER, StandardAcl.CLUSTER_NAME));
        add(authorizer, acl(ResourceType.TOPIC, "t", PatternType.LITERAL, "User:admin", "*", AclOperation.ALL,
                AclPermissionType.DENY));
        assertTrue(may(authorizer, "admin", AclOperation.READ, ResourceType.TOPIC, "t"), "even over a DENY");
        assertFalse(may(authorizer, "admi", AclOperation.READ, ResourceType.TOPIC, "t"));
    }

    @Test
    void allowEveryoneIfNoAclFoundOpensOnlyResourcesNoAclNames() {
        StandardAuthorizer open = authorizer(true);
        add(open, allowTopic("named", PatternType.LITERAL, "User:alice", AclOperation.READ));
        assertTrue(may(open, "bob", AclOperation.WRITE, ResourceType.TOPIC, "unnamed"));
        assertFalse(may(open, "bob", AclOperation.READ, ResourceType.TOPIC, "named"));
        StandardAuthorizer closed = authorizer(false);
        assertFalse(may(closed, "bob", AclOperation.WRITE, ResourceType.TOPIC, "unnamed"));
    }

    @Test
    void aDeletedAclNoLongerGrants() {
        StandardAuthorizer authorizer = authorizer(false);
        List<UUID> ids = add(authorizer, allowTopic("t", PatternType.LITERAL, "User:alice", AclOperation.READ),
                allowTopic("t", PatternType.LITERAL, "User:bob", AclOperation.READ));
        remove(authorizer, ids.get(0));
        assertFalse(may(authorizer, "alice", AclOperation.READ, ResourceType.TOPIC, "t"));
        assertTrue(may(authorizer, "bob", AclOperation.READ, ResourceType.TOPIC, "t"));
        assertEquals(1, authorizer.aclCount());
    }

    @Test
    void writeOnSomeTopicAllowsAnIdempotentProducerUnlessDenied() {
        StandardAuthorizer authorizer = authorizer(false);
        assertFalse(authorizer.authorizeAny("User", "alice", HOST, AclOperation.WRITE, ResourceType.TOPIC));
        add(authorizer, allowTopic("logs-", PatternType.PREFIXED, "User:alice", AclOperation.WRITE));
        assertTrue(authorizer.authorizeAny("User", "alice", HOST, AclOperation.WRITE, ResourceType.TOPIC));
        add(authorizer, acl(ResourceType.TOPIC, "logs", PatternType.PREFIXED, "User:alice", "*", AclOperation.WRITE,
                AclPermissionType.DENY));
        assertFalse(authorizer.authorizeAny("User", "alice", HOST, AclOperation.WRITE, ResourceType.TOPIC));
    }

    @Test
    void prefixLookupsAgreeWithAScanOverRandomAcls() {
        Random random = new Random(7);
        StandardAuthorizer authorizer = authorizer(false);
        List<StandardAcl> acls = new ArrayList<>();
        String[] alphabet = {"a", "b", "ab", "ba", "-", "a-"};
        for (int i = 0; i < 300; i++) {
            StringBuilder name = new StringBuilder();
            for (int j = 1 + random.nextInt(4); j > 0; j--) {
                name.append(alphabet[random.nextInt(alphabet.length)]);
            }
            acls.add(acl(ResourceType.TOPIC, name.toString(), random.nextBoolean() ? PatternType.PREFIXED
                    : PatternType.LITERAL, "User:u" + random.nextInt(3), "*", AclOperation.READ,
                    random.nextInt(5) == 0 ? AclPermissionType.DENY : AclPermissionType.ALLOW));
        }
        add(authorizer, acls.toArray(StandardAcl[]::new));
        for (int i = 0; i < 2_000; i++) {
            StringBuilder name = new StringBuilder();
            for (int j = 1 + random.nextInt(5); j > 0; j--) {
                name.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String user = "u" + random.nextInt(3);
            assertEquals(scan(acls, user, name.toString()), may(authorizer, user, AclOperation.READ,
                    ResourceType.TOPIC, name.toString()), user + " on " + name);
        }
    }

    /** The rule written as a walk over every ACL, against which the index is checked. */
    private static boolean scan(List<StandardAcl> acls, String user, String name) {
        boolean allowed = false;
        for (StandardAcl acl : acls) {
            boolean applies = acl.patternType() == PatternType.LITERAL ? acl.resourceName().equals(name)
                    : name.startsWith(acl.resourceName());
            if (applies && acl.principal().equals("User:" + user)) {
                if (acl.permissionType() == AclPermissionType.DENY) {
                    return false;
                }
                allowed = true;
            }
        }
        return allowed;
    }

    @Test
    void onlyKafkasStandardAuthorizerClassNameIsAccepted() {
        assertTrue(AuthorizerConfig.fromProperties(Map.of()).isEmpty());
        AuthorizerConfig config = AuthorizerConfig.fromProperties(Map.of(AuthorizerConfig.AUTHORIZER_CLASS_NAME,
                AuthorizerConfig.STANDARD_AUTHORIZER, AuthorizerConfig.SUPER_USERS, "User:admin; User:CN=broker,O=x",
                AuthorizerConfig.ALLOW_EVERYONE_IF_NO_ACL_FOUND, "true")).orElseThrow();
        assertEquals(Set.of("User:admin", "User:CN=broker,O=x"), config.superUsers());
        assertTrue(config.allowEveryoneIfNoAclFound());
        ConfigException wrong = assertThrows(ConfigException.class, () -> AuthorizerConfig.fromProperties(Map.of(
                AuthorizerConfig.AUTHORIZER_CLASS_NAME, "kafka.security.authorizer.AclAuthorizer")));
        assertTrue(wrong.getMessage().contains("authorizer.class.name"), wrong.getMessage());
        assertFalse(wrong.getMessage().contains("\n"));
        assertThrows(ConfigException.class, () -> AuthorizerConfig.fromProperties(Map.of(
                AuthorizerConfig.AUTHORIZER_CLASS_NAME, AuthorizerConfig.STANDARD_AUTHORIZER,
                AuthorizerConfig.SUPER_USERS, "admin")));
    }
}
