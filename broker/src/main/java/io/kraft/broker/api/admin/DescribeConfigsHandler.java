package io.kraft.broker.api.admin;

import io.kraft.broker.config.BrokerLoggers;
import io.kraft.broker.config.ConfigDescriber;
import io.kraft.broker.config.DescribedConfig;
import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DescribeConfigsRequest;
import io.kraft.broker.protocol.message.DescribeConfigsRequest.DescribeConfigsResource;
import io.kraft.broker.protocol.message.DescribeConfigsResponse;
import io.kraft.broker.protocol.message.DescribeConfigsResponse.DescribeConfigsResourceResult;
import io.kraft.broker.protocol.message.DescribeConfigsResponse.DescribeConfigsResult;
import io.kraft.broker.protocol.message.DescribeConfigsResponse.DescribeConfigsSynonym;
import io.kraft.config.ConfigException;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.storage.errors.Errors;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Answers DescribeConfigs (v1-4) from the metadata image: a topic's every setting with its source and
 * synonyms, this broker's settings, or (broker resource "") the cluster-wide dynamic defaults; and this node's
 * log levels (BROKER_LOGGER). Keys the
 * request names that do not exist are simply absent, as in Kafka.
 */
public final class DescribeConfigsHandler implements RequestHandler<DescribeConfigsRequest, DescribeConfigsResponse> {
    /** The first DescribeConfigs version that can ask for each config's documentation. */
    private static final short DOCUMENTATION_VERSION = 3;

    private final Supplier<MetadataImage> images;
    private final EffectiveConfigs configs;
    private final ConfigDescriber describer;

    private final BrokerLoggerConfigs loggers;

    public DescribeConfigsHandler(Supplier<MetadataImage> images, EffectiveConfigs configs) {
        this(images, configs, BrokerLoggers.load());
    }

    public DescribeConfigsHandler(Supplier<MetadataImage> images, EffectiveConfigs configs, BrokerLoggers loggers) {
        this.images = Objects.requireNonNull(images, "images");
        this.configs = Objects.requireNonNull(configs, "configs");
        this.describer = new ConfigDescriber(configs);
        this.loggers = new BrokerLoggerConfigs(configs.brokerId(), loggers);
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_CONFIGS;
    }

    @Override
    public DescribeConfigsResponse handle(RequestContext context, ApiRequest<DescribeConfigsRequest> request) {
        DescribeConfigsRequest body = request.body();
        boolean includeSynonyms = body.includeSynonyms();
        boolean includeDocumentation = request.version() >= DOCUMENTATION_VERSION && body.includeDocumentation();
        MetadataImage image = images.get();
        DescribeConfigsResponse response = new DescribeConfigsResponse();
        for (DescribeConfigsResource resource : body.resources()) {
            byte type = resource.resourceType();
            String name = resource.resourceName();
            List<String> keys = resource.configurationKeys();
            DescribeConfigsResult out = new DescribeConfigsResult().setResourceType(type).setResourceName(name);
            response.results().add(out);
            if (type == BrokerLoggerConfigs.RESOURCE_TYPE) {
                // A node's log levels are the cluster's configs as far as ACLs go, as in Kafka.
                if (!context.authorizeCluster(AclOperation.DESCRIBE_CONFIGS)) {
                    setError(out, ApiError.of(Errors.CLUSTER_AUTHORIZATION_FAILED, null));
                    continue;
                }
                BrokerLoggerConfigs.Result<List<DescribeConfigsResourceResult>> levels = loggers.describe(name, keys);
                setError(out, levels.error());
                if (levels.value() != null) {
                    out.configs().addAll(levels.value());
                }
                continue;
            }
            List<DescribedConfig> described;
            try {
                ConfigResource target = ConfigUpdates.resource(type, name);
                ConfigUpdates.authorize(context, target, AclOperation.DESCRIBE_CONFIGS);
                described = describe(image, target);
            } catch (ControllerException e) {
                setError(out, e.apiError());
                continue;
            } catch (ConfigException e) {
                setError(out, ApiError.of(Errors.INVALID_CONFIG, e.getMessage()));
                continue;
            }
            setError(out, ApiError.NONE);
            // Null asks for every key; so does an empty list, as Kafka's brokers read it.
            Set<String> wanted = keys == null || keys.isEmpty() ? null : new HashSet<>(keys);
            for (DescribedConfig config : described) {
                if (wanted == null || wanted.contains(config.name())) {
                    out.configs().add(toResult(config, includeSynonyms, includeDocumentation));
                }
            }
        }
        return response;
    }

    private List<DescribedConfig> describe(MetadataImage image, ConfigResource resource) {
        return switch (resource.type()) {
            case TOPIC -> {
                if (image.topics().topic(resource.name()) == null) {
                    throw new ControllerException(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                            "Topic " + resource.name() + " does not exist");
                }
                yield describer.topic(image, image.configs().configs(resource));
            }
            case BROKER -> {
                if (resource.name().isEmpty()) {
                    yield describer.clusterDefault(image);
                }
                if (!resource.name().equals(Integer.toString(configs.brokerId()))) {
                    throw new ControllerException(Errors.INVALID_REQUEST, "Broker " + configs.brokerId()
                            + " describes only its own configs (resource '" + configs.brokerId()
                            + "') or the cluster default (''), not '" + resource.name() + "'");
                }
                yield describer.broker(image);
            }
        };
    }

    private static void setError(DescribeConfigsResult out, ApiError error) {
        out.setErrorCode(error.error().code()).setErrorMessage(error.message());
    }

    private static DescribeConfigsResourceResult toResult(DescribedConfig config, boolean includeSynonyms,
                                                          boolean includeDocumentation) {
        DescribeConfigsResourceResult out = new DescribeConfigsResourceResult()
                .setName(config.name())
                .setValue(config.value())
                .setReadOnly(config.readOnly())
                .setConfigSource(config.source().id())
                .setIsSensitive(config.sensitive());
        if (includeSynonyms) {
            for (DescribedConfig.Synonym synonym : config.synonyms()) {
                out.synonyms().add(new DescribeConfigsSynonym()
                        .setName(synonym.name())
                        .setValue(synonym.value())
                        .setSource(synonym.source().id()));
            }
        }
        return out.setConfigType(config.typeCode())
                .setDocumentation(includeDocumentation ? config.documentation() : null);
    }
}
