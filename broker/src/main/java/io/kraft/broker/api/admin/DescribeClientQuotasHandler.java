package io.kraft.broker.api.admin;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DescribeClientQuotasRequest;
import io.kraft.broker.protocol.message.DescribeClientQuotasResponse;
import io.kraft.broker.protocol.message.DescribeClientQuotasResponse.EntityData;
import io.kraft.broker.protocol.message.DescribeClientQuotasResponse.EntryData;
import io.kraft.broker.protocol.message.DescribeClientQuotasResponse.ValueData;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.quota.ClientQuotaEntity;
import io.kraft.metadata.quota.ClientQuotaFilter;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Answers DescribeClientQuotas (v0-1) from the broker's metadata image with Kafka's filter semantics (exact, default
 * or any name per entity type; strict or not). Needs DESCRIBE_CONFIGS on the cluster.
 */
public final class DescribeClientQuotasHandler
        implements RequestHandler<DescribeClientQuotasRequest, DescribeClientQuotasResponse> {
    private final Supplier<MetadataImage> image;

    public DescribeClientQuotasHandler(Supplier<MetadataImage> image) {
        this.image = Objects.requireNonNull(image, "image");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_CLIENT_QUOTAS;
    }

    @Override
    public DescribeClientQuotasResponse handle(RequestContext context,
                                               ApiRequest<DescribeClientQuotasRequest> request) {
        if (!context.authorizeCluster(AclOperation.DESCRIBE_CONFIGS)) {
            return failed(Errors.CLUSTER_AUTHORIZATION_FAILED, null);
        }
        List<ClientQuotaFilter.Component> components = new ArrayList<>();
        for (var component : request.body().components()) {
            byte matchType = component.matchType();
            if (matchType < 0 || matchType > 2) {
                return failed(Errors.INVALID_REQUEST, "Unexpected match type " + matchType);
            }
            components.add(new ClientQuotaFilter.Component(component.entityType(),
                    ClientQuotaFilter.MatchType.values()[matchType], component.match()));
        }
        ClientQuotaFilter filter = new ClientQuotaFilter(components, request.body().strict());
        String invalid = filter.invalidReason();
        if (invalid != null) {
            return failed(Errors.INVALID_REQUEST, invalid);
        }
        DescribeClientQuotasResponse response = new DescribeClientQuotasResponse();
        response.setEntries(new ArrayList<>());
        for (Map.Entry<ClientQuotaEntity, Map<String, Double>> entry
                : image.get().clientQuotas().quotas().entrySet()) {
            if (!filter.matches(entry.getKey())) {
                continue;
            }
            EntryData data = new EntryData();
            entry.getKey().names().forEach((type, name) ->
                    data.entity().add(new EntityData().setEntityType(type).setEntityName(name)));
            new TreeMap<>(entry.getValue()).forEach((key, value) ->
                    data.values().add(new ValueData().setKey(key).setValue(value)));
            response.entries().add(data);
        }
        return response;
    }

    @Override
    public Optional<DescribeClientQuotasResponse> errorResponse(ApiRequest<DescribeClientQuotasRequest> request,
                                                                Errors error) {
        return Optional.of(failed(error, null));
    }

    private static DescribeClientQuotasResponse failed(Errors error, String message) {
        return new DescribeClientQuotasResponse().setErrorCode(error.code()).setErrorMessage(message).setEntries(null);
    }
}
