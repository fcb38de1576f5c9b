package io.kraft.metadata.controller;

import io.kraft.metadata.authorizer.StandardAcl;
import java.util.List;

/** What one filter of a DeleteAcls deleted, or why it failed (then nothing). */
public record AclDeleteResult(ApiError error, List<StandardAcl> deleted) {
    public AclDeleteResult {
        deleted = List.copyOf(deleted);
    }
}
