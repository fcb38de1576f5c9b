package io.kraft.metadata.image;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.proto.metadata.MetadataRecord;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Every ACL by id. The map is persistent, so the image after a delta shares every ACL the delta did not touch. */
public record AclsImage(Map<UUID, StandardAcl> acls) {
    public static final AclsImage EMPTY = new AclsImage(PersistentMaps.empty());

    public AclsImage {
        acls = PersistentMaps.of(acls);
    }

    /** One record per ACL, ordered by id. */
    public List<MetadataRecord> toRecords() {
        return acls.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.naturalOrder()))
                .map(entry -> MetadataRecords.of(entry.getValue().toRecord(entry.getKey())))
                .toList();
    }
}
