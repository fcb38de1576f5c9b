package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.authorizer.AclFilter;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.RemoveAccessControlEntryRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * CreateAcls and DeleteAcls on the active controller: validates, generates one record per ACL created or deleted,
 * and keeps only an index of the ACLs by id and by content (fed by the view's changes), so creating an ACL that
 * exists already is a success that writes nothing, as in Kafka.
 */
final class AclControlManager {
    /** How many ACLs one DeleteAcls may remove (the whole request commits as one batch). */
    static final int MAX_DELETED_PER_REQUEST = 10_000;

    private final Random random;
    private final Map<UUID, StandardAcl> byId = new LinkedHashMap<>();
    private final Map<StandardAcl, UUID> byContent = new HashMap<>();

    AclControlManager(Random random) {
        this.random = random;
    }

    void index(MetadataImage image) {
        image.acls().acls().forEach((id, acl) -> aclChanged(id, null, acl));
    }

    void aclChanged(UUID id, StandardAcl before, StandardAcl after) {
        if (before != null) {
            byId.remove(id);
            byContent.remove(before, id);
        }
        if (after != null) {
            byId.put(id, after);
            byContent.put(after, id);
        }
    }

    /** One result per ACL, in order: NONE (created, or present already) or INVALID_REQUEST with the reason. */
    ControllerResult<List<ApiError>> createAcls(List<StandardAcl> acls) {
        List<MetadataRecord> records = new ArrayList<>();
        List<ApiError> results = new ArrayList<>(acls.size());
        Set<StandardAcl> created = new HashSet<>();
        for (StandardAcl acl : acls) {
            String invalid = acl.invalidReason();
            if (invalid != null) {
                results.add(ApiError.of(Errors.INVALID_REQUEST, invalid));
                continue;
            }
            if (!byContent.containsKey(acl) && created.add(acl)) {
                UUID id = new UUID(random.nextLong(), random.nextLong());
                while (byId.containsKey(id)) {
                    id = new UUID(random.nextLong(), random.nextLong());
                }
                records.add(MetadataRecords.of(acl.toRecord(id)));
            }
            results.add(ApiError.NONE);
        }
        return ControllerResult.of(records, results);
    }

    /**
     * One result per filter, in order, with the ACLs it matched; an ACL two filters match is deleted (and listed) by
     * the first.
     */
    ControllerResult<List<AclDeleteResult>> deleteAcls(List<AclFilter> filters) {
        List<MetadataRecord> records = new ArrayList<>();
        List<AclDeleteResult> results = new ArrayList<>(filters.size());
        Set<UUID> deleted = new HashSet<>();
        for (AclFilter filter : filters) {
            String invalid = filter.invalidReason();
            if (invalid != null) {
                results.add(new AclDeleteResult(ApiError.of(Errors.INVALID_REQUEST, invalid), List.of()));
                continue;
            }
            List<StandardAcl> matched = new ArrayList<>();
            for (Map.Entry<UUID, StandardAcl> entry : byId.entrySet()) {
                if (!deleted.contains(entry.getKey()) && filter.matches(entry.getValue())) {
                    if (deleted.size() == MAX_DELETED_PER_REQUEST) {
                        return ControllerResult.failed(Errors.INVALID_REQUEST, "One DeleteAcls may delete at most "
                                + MAX_DELETED_PER_REQUEST + " ACLs; narrow the filters");
                    }
                    deleted.add(entry.getKey());
                    matched.add(entry.getValue());
                    records.add(MetadataRecords.of(RemoveAccessControlEntryRecord.newBuilder()
                            .setId(Uuids.toProto(entry.getKey())).build()));
                }
            }
            results.add(new AclDeleteResult(ApiError.NONE, matched));
        }
        return ControllerResult.of(records, results);
    }
}
