package io.kraft.metadata.image;

import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.proto.metadata.AccessControlEntryRecord;
import io.kraft.proto.metadata.RemoveAccessControlEntryRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** ACLs created or deleted on top of an {@link AclsImage}. */
public final class AclsDelta {
    private final AclsImage image;
    private final MetadataChangeListener listener;
    /** Each changed id's ACL; null for a deleted one. */
    private final Map<UUID, StandardAcl> changes = new HashMap<>();

    public AclsDelta(AclsImage image, MetadataChangeListener listener) {
        this.image = image;
        this.listener = listener;
    }

    /** Each id this delta touched, with its ACL, or null if the ACL was deleted. */
    public Map<UUID, StandardAcl> changes() {
        return Collections.unmodifiableMap(changes);
    }

    /** The ACL with this id including this delta, or null. */
    public StandardAcl acl(UUID id) {
        return changes.containsKey(id) ? changes.get(id) : image.acls().get(id);
    }

    public void replay(AccessControlEntryRecord record) {
        UUID id = Uuids.fromProto(record.getId());
        StandardAcl acl = StandardAcl.fromRecord(record);
        if (acl.invalidReason() != null) {
            throw new InvalidMetadataRecordException("ACL " + id + " cannot apply: " + acl.invalidReason());
        }
        StandardAcl before = acl(id);
        changes.put(id, acl);
        listener.aclChanged(id, before, acl);
    }

    public void replay(RemoveAccessControlEntryRecord record) {
        UUID id = Uuids.fromProto(record.getId());
        StandardAcl before = acl(id);
        if (before == null) {
            throw new InvalidMetadataRecordException("Cannot remove ACL " + id + ": there is no such ACL");
        }
        changes.put(id, null);
        listener.aclChanged(id, before, null);
    }

    public AclsImage apply() {
        if (changes.isEmpty()) {
            return image;
        }
        PersistentMaps.Builder<UUID, StandardAcl> edits = PersistentMaps.edit(image.acls());
        changes.forEach((id, acl) -> {
            if (acl == null) {
                edits.remove(id);
            } else {
                edits.put(id, acl);
            }
        });
        return new AclsImage(edits.build());
    }
}
