package io.kraft.broker.api.admin;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DescribeAclsRequest;
import io.kraft.broker.protocol.message.DescribeAclsResponse;
import io.kraft.broker.protocol.message.DescribeAclsResponse.AclDescription;
import io.kraft.broker.protocol.message.DescribeAclsResponse.DescribeAclsResource;
import io.kraft.metadata.authorizer.AclFilter;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Answers DescribeAcls (v1-3) from the broker's metadata image: the ACLs the filter matches, grouped by resource
 * pattern. Needs DESCRIBE on the cluster; a broker without an authorizer answers SECURITY_DISABLED, as Kafka does.
 */
public final class DescribeAclsHandler implements RequestHandler<DescribeAclsRequest, DescribeAclsResponse> {
    private record Pattern(byte type, String name, byte patternType) {
    }

    private static final Comparator<Pattern> ORDER = Comparator.comparing(Pattern::type)
            .thenComparing(Pattern::patternType).thenComparing(Pattern::name);

    private final Supplier<MetadataImage> image;

    public DescribeAclsHandler(Supplier<MetadataImage> image) {
        this.image = Objects.requireNonNull(image, "image");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_ACLS;
    }

    @Override
    public DescribeAclsResponse handle(RequestContext context, ApiRequest<DescribeAclsRequest> request) {
        if (!context.authorizationEnabled()) {
            return errorResponse(Errors.SECURITY_DISABLED, AclsWire.NO_AUTHORIZER);
        }
        if (!context.authorizeCluster(AclOperation.DESCRIBE)) {
            return errorResponse(Errors.CLUSTER_AUTHORIZATION_FAILED, null);
        }
        AclFilter filter = AclsWire.filter(request.body());
        String invalid = filter.invalidReason();
        if (invalid != null) {
            return errorResponse(Errors.INVALID_REQUEST, invalid);
        }
        Map<Pattern, List<StandardAcl>> byPattern = new TreeMap<>(ORDER);
        for (StandardAcl acl : image.get().acls().acls().values()) {
            if (filter.matches(acl)) {
                byPattern.computeIfAbsent(new Pattern(acl.resourceType().code(), acl.resourceName(),
                        acl.patternType().code()), p -> new java.util.ArrayList<>()).add(acl);
            }
        }
        DescribeAclsResponse response = new DescribeAclsResponse();
        byPattern.forEach((pattern, acls) -> {
            DescribeAclsResource resource = new DescribeAclsResource().setResourceType(pattern.type())
                    .setResourceName(pattern.name()).setPatternType(pattern.patternType());
            for (StandardAcl acl : acls) {
                resource.acls().add(new AclDescription().setPrincipal(acl.principal()).setHost(acl.host())
                        .setOperation(acl.operation().code()).setPermissionType(acl.permissionType().code()));
            }
            response.resources().add(resource);
        });
        return response;
    }

    @Override
    public Optional<DescribeAclsResponse> errorResponse(ApiRequest<DescribeAclsRequest> request, Errors error) {
        return Optional.of(errorResponse(error, null));
    }

    private static DescribeAclsResponse errorResponse(Errors error, String message) {
        return new DescribeAclsResponse().setErrorCode(error.code()).setErrorMessage(message);
    }
}
