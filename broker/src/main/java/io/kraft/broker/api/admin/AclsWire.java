package io.kraft.broker.api.admin;

import io.kraft.broker.protocol.message.CreateAclsRequest.AclCreation;
import io.kraft.broker.protocol.message.DeleteAclsRequest.DeleteAclsFilter;
import io.kraft.broker.protocol.message.DeleteAclsResponse.DeleteAclsMatchingAcl;
import io.kraft.broker.protocol.message.DescribeAclsRequest;
import io.kraft.metadata.authorizer.AclFilter;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.AclPermissionType;
import io.kraft.metadata.authorizer.PatternType;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.metadata.authorizer.StandardAcl;

/** The ACL APIs' wire entries as ACLs and filters, and back. */
final class AclsWire {
    /** Kafka's answer to an ACL API on a broker without an authorizer. */
    static final String NO_AUTHORIZER = "No Authorizer is configured.";

    private AclsWire() {
    }

    static StandardAcl acl(AclCreation creation) {
        return new StandardAcl(ResourceType.fromCode(creation.resourceType()), creation.resourceName(),
                PatternType.fromCode(creation.resourcePatternType()), creation.principal(), creation.host(),
                AclOperation.fromCode(creation.operation()), AclPermissionType.fromCode(creation.permissionType()));
    }

    static AclFilter filter(DescribeAclsRequest request) {
        return new AclFilter(ResourceType.fromCode(request.resourceTypeFilter()), request.resourceNameFilter(),
                PatternType.fromCode(request.patternTypeFilter()), request.principalFilter(), request.hostFilter(),
                AclOperation.fromCode(request.operation()), AclPermissionType.fromCode(request.permissionType()));
    }

    static AclFilter filter(DeleteAclsFilter filter) {
        return new AclFilter(ResourceType.fromCode(filter.resourceTypeFilter()), filter.resourceNameFilter(),
                PatternType.fromCode(filter.patternTypeFilter()), filter.principalFilter(), filter.hostFilter(),
                AclOperation.fromCode(filter.operation()), AclPermissionType.fromCode(filter.permissionType()));
    }

    static DeleteAclsMatchingAcl matching(StandardAcl acl) {
        return new DeleteAclsMatchingAcl().setResourceType(acl.resourceType().code())
                .setResourceName(acl.resourceName()).setPatternType(acl.patternType().code())
                .setPrincipal(acl.principal()).setHost(acl.host()).setOperation(acl.operation().code())
                .setPermissionType(acl.permissionType().code());
    }
}
