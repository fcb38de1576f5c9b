package io.kraft.server.grpc;

import io.kraft.metadata.authorizer.AclFilter;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.AclPermissionType;
import io.kraft.metadata.authorizer.PatternType;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.controller.AclDeleteResult;
import io.kraft.metadata.controller.ApiError;
import io.kraft.proto.controller.AclResult;
import io.kraft.proto.controller.DeleteAclsFilterResult;
import io.kraft.proto.metadata.AccessControlEntryRecord;
import java.util.List;

/** The control plane's form of CreateAcls and DeleteAcls: ACLs as id-less records, filters and results. */
final class AclMessages {
    private AclMessages() {
    }

    static AccessControlEntryRecord acl(StandardAcl acl) {
        return AccessControlEntryRecord.newBuilder()
                .setResourceType(acl.resourceType().code()).setResourceName(acl.resourceName())
                .setPatternType(acl.patternType().code()).setPrincipal(acl.principal()).setHost(acl.host())
                .setOperation(acl.operation().code()).setPermissionType(acl.permissionType().code()).build();
    }

    static StandardAcl acl(AccessControlEntryRecord record) {
        return StandardAcl.fromRecord(record);
    }

    static io.kraft.proto.controller.AclFilter filter(AclFilter filter) {
        io.kraft.proto.controller.AclFilter.Builder proto = io.kraft.proto.controller.AclFilter.newBuilder()
                .setResourceType(filter.resourceType().code()).setPatternType(filter.patternType().code())
                .setOperation(filter.operation().code()).setPermissionType(filter.permissionType().code());
        if (filter.resourceName() != null) {
            proto.setResourceName(filter.resourceName());
        }
        if (filter.principal() != null) {
            proto.setPrincipal(filter.principal());
        }
        if (filter.host() != null) {
            proto.setHost(filter.host());
        }
        return proto.build();
    }

    static AclFilter filter(io.kraft.proto.controller.AclFilter proto) {
        return new AclFilter(ResourceType.fromCode(proto.getResourceType()),
                proto.hasResourceName() ? proto.getResourceName() : null, PatternType.fromCode(proto.getPatternType()),
                proto.hasPrincipal() ? proto.getPrincipal() : null, proto.hasHost() ? proto.getHost() : null,
                AclOperation.fromCode(proto.getOperation()), AclPermissionType.fromCode(proto.getPermissionType()));
    }

    static AclResult result(ApiError error) {
        return AclResult.newBuilder().setErrorCode(error.error().code())
                .setErrorMessage(error.message() == null ? "" : error.message()).build();
    }

    static ApiError result(AclResult proto) {
        return ApiError.of(GrpcControllerClient.errorFor(proto.getErrorCode()),
                proto.getErrorMessage().isEmpty() ? null : proto.getErrorMessage());
    }

    static DeleteAclsFilterResult deleteResult(AclDeleteResult result) {
        DeleteAclsFilterResult.Builder proto = DeleteAclsFilterResult.newBuilder()
                .setErrorCode(result.error().error().code())
                .setErrorMessage(result.error().message() == null ? "" : result.error().message());
        result.deleted().forEach(acl -> proto.addDeleted(acl(acl)));
        return proto.build();
    }

    static AclDeleteResult deleteResult(DeleteAclsFilterResult proto) {
        List<StandardAcl> deleted = proto.getDeletedList().stream().map(AclMessages::acl).toList();
        return new AclDeleteResult(ApiError.of(GrpcControllerClient.errorFor(proto.getErrorCode()),
                proto.getErrorMessage().isEmpty() ? null : proto.getErrorMessage()), deleted);
    }
}
