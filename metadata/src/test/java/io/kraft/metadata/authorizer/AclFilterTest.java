package io.kraft.metadata.authorizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** DescribeAcls/DeleteAcls filters: ANY matches patterns with the same name, MATCH those that apply to the name. */
class AclFilterTest {
    private static final StandardAcl LITERAL = acl("orders", PatternType.LITERAL);
    private static final StandardAcl WILDCARD = acl("*", PatternType.LITERAL);
    private static final StandardAcl PREFIX = acl("ord", PatternType.PREFIXED);
    private static final StandardAcl OTHER = acl("payments", PatternType.LITERAL);
    private static final List<StandardAcl> ALL = List.of(LITERAL, WILDCARD, PREFIX, OTHER);

    private static StandardAcl acl(String name, PatternType pattern) {
        return new StandardAcl(ResourceType.TOPIC, name, pattern, "User:alice", "*", AclOperation.READ,
                AclPermissionType.ALLOW);
    }

    private static List<StandardAcl> matching(String name, PatternType pattern) {
        AclFilter filter = new AclFilter(ResourceType.TOPIC, name, pattern, null, null, AclOperation.ANY,
                AclPermissionType.ANY);
        return ALL.stream().filter(filter::matches).toList();
    }

    @Test
    void patternTypesSelectAsKafkaDefinesThem() {
        assertEquals(List.of(LITERAL), matching("orders", PatternType.LITERAL));
        assertEquals(List.of(LITERAL), matching("orders", PatternType.ANY));
        assertEquals(List.of(LITERAL, WILDCARD, PREFIX), matching("orders", PatternType.MATCH));
        assertEquals(List.of(PREFIX), matching("ord", PatternType.PREFIXED));
        assertEquals(List.of(WILDCARD), matching("*", PatternType.LITERAL));
        assertEquals(ALL, matching(null, PatternType.ANY));
        assertEquals(List.of(PREFIX), matching(null, PatternType.PREFIXED));
    }

    @Test
    void entryFieldsNarrowTheFilter() {
        AclFilter bob = new AclFilter(ResourceType.ANY, null, PatternType.ANY, "User:bob", null, AclOperation.ANY,
                AclPermissionType.ANY);
        assertEquals(List.of(), ALL.stream().filter(bob::matches).toList());
        AclFilter reads = new AclFilter(ResourceType.ANY, null, PatternType.ANY, "User:alice", "*",
                AclOperation.READ, AclPermissionType.ALLOW);
        assertEquals(ALL, ALL.stream().filter(reads::matches).toList());
        AclFilter writes = new AclFilter(ResourceType.ANY, null, PatternType.ANY, null, null, AclOperation.WRITE,
                AclPermissionType.ANY);
        assertEquals(List.of(), ALL.stream().filter(writes::matches).toList());
    }
}
