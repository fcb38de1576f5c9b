package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.authorizer.AclFilter;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.AclPermissionType;
import io.kraft.metadata.authorizer.PatternType;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** CreateAcls and DeleteAcls on the controller: validation, no duplicate records, filters deleting once. */
class AclControlManagerTest {
    private final AclControlManager manager = new AclControlManager(new Random(1));
    private MetadataImage image = MetadataImage.EMPTY;
    private long offset = 1;

    private static StandardAcl read(String topic, String principal) {
        return new StandardAcl(ResourceType.TOPIC, topic, PatternType.LITERAL, principal, "*", AclOperation.READ,
                AclPermissionType.ALLOW);
    }

    /** Commits the records, feeding the manager's index as the controller's view does. */
    private void commit(List<MetadataRecord> records) {
        MetadataDelta delta = new MetadataDelta(image, new io.kraft.metadata.image.MetadataChangeListener() {
            @Override
            public void aclChanged(java.util.UUID id, StandardAcl before, StandardAcl after) {
                manager.aclChanged(id, before, after);
            }
        });
        for (MetadataRecord record : records) {
            delta.replay(record, offset++, 1);
        }
        image = delta.apply();
    }

    @Test
    void createValidatesEachAclAndWritesNoDuplicate() {
        StandardAcl good = read("t", "User:alice");
        StandardAcl badPrincipal = read("t", "alice");
        StandardAcl badType = new StandardAcl(ResourceType.ANY, "t", PatternType.LITERAL, "User:a", "*",
                AclOperation.READ, AclPermissionType.ALLOW);
        StandardAcl badCluster = new StandardAcl(ResourceType.CLUSTER, "my-cluster", PatternType.LITERAL, "User:a",
                "*", AclOperation.ALTER, AclPermissionType.ALLOW);
        ControllerResult<List<ApiError>> result = manager.createAcls(List.of(good, badPrincipal, badType, good,
                badCluster));
        assertEquals(List.of(Errors.NONE, Errors.INVALID_REQUEST, Errors.INVALID_REQUEST, Errors.NONE,
                Errors.INVALID_REQUEST), result.response().stream().map(ApiError::error).toList());
        assertEquals(1, result.records().size(), "the same ACL twice is written once");
        commit(result.records());
        assertEquals(0, manager.createAcls(List.of(good)).records().size(), "an existing ACL is not written again");
        assertEquals(1, image.acls().acls().size());
    }

    @Test
    void deleteRemovesWhatEachFilterMatchesOnce() {
        commit(manager.createAcls(List.of(read("t", "User:alice"), read("t", "User:bob"), read("u", "User:alice")))
                .records());
        AclFilter alice = new AclFilter(ResourceType.ANY, null, PatternType.ANY, "User:alice", null, AclOperation.ANY,
                AclPermissionType.ANY);
        AclFilter topicT = new AclFilter(ResourceType.TOPIC, "t", PatternType.MATCH, null, null, AclOperation.ANY,
                AclPermissionType.ANY);
        ControllerResult<List<AclDeleteResult>> result = manager.deleteAcls(List.of(alice, topicT));
        assertEquals(2, result.response().get(0).deleted().size());
        assertEquals(List.of(read("t", "User:bob")), result.response().get(1).deleted(),
                "the ACL of alice on t was deleted by the first filter already");
        commit(result.records());
        assertTrue(image.acls().acls().isEmpty());
        AclFilter unknown = new AclFilter(ResourceType.UNKNOWN, null, PatternType.ANY, null, null, AclOperation.ANY,
                AclPermissionType.ANY);
        assertEquals(Errors.INVALID_REQUEST, manager.deleteAcls(List.of(unknown)).response().get(0).error().error());
    }
}
