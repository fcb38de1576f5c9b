package io.kraft.broker.api.admin;

import io.kraft.broker.config.ConfigDescriber;
import io.kraft.broker.config.DescribedConfig;
import io.kraft.broker.config.EffectiveConfigs;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.DescribeConfigsMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.config.ConfigException;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Answers DescribeConfigs (v1-4) from the metadata image: a topic's every setting with its source and
 * synonyms, this broker's settings, or (broker resource "") the cluster-wide dynamic defaults. Keys the
 * request names that do not exist are simply absent, as in Kafka.
 */
public final class DescribeConfigsHandler implements LegacyRequestHandler {
    private final Supplier<MetadataImage> images;
    private final EffectiveConfigs configs;
    private final ConfigDescriber describer;

    public DescribeConfigsHandler(Supplier<MetadataImage> images, EffectiveConfigs configs) {
        this.images = Objects.requireNonNull(images, "images");
        this.configs = Objects.requireNonNull(configs, "configs");
        this.describer = new ConfigDescriber(configs);
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_CONFIGS;
    }

    @Override
    public Struct handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        short version = request.version();
        boolean includeSynonyms = body.getBoolean("include_synonyms");
        boolean includeDocumentation = version >= 3 && body.getBoolean("include_documentation");
        MetadataImage image = images.get();
        Struct response = DescribeConfigsMessages.RESPONSE.newStruct();
        for (Struct resource : body.getStructs("resources")) {
            byte type = resource.getByte("resource_type");
            String name = resource.getString("resource_name");
            List<String> keys = resource.getList(resource.field("configuration_keys"));
            Struct out = response.addStruct("results");
            out.setByte(out.field("resource_type"), type);
            out.set(out.field("resource_name"), name);
            List<DescribedConfig> described;
            try {
                described = describe(image, ConfigUpdates.resource(type, name));
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
                    addConfig(out.addStruct("configs"), config, includeSynonyms, includeDocumentation);
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

    private static void setError(Struct out, ApiError error) {
        out.setShort(out.field("error_code"), error.error().code());
        out.set(out.field("error_message"), error.message());
    }

    private static void addConfig(Struct out, DescribedConfig config, boolean includeSynonyms,
                                  boolean includeDocumentation) {
        out.set(out.field("name"), config.name());
        out.set(out.field("value"), config.value());
        out.setBoolean(out.field("read_only"), config.readOnly());
        out.setByte(out.field("config_source"), config.source().id());
        out.setBoolean(out.field("is_sensitive"), config.sensitive());
        if (includeSynonyms) {
            for (DescribedConfig.Synonym synonym : config.synonyms()) {
                Struct s = out.addStruct("synonyms");
                s.set(s.field("name"), synonym.name());
                s.set(s.field("value"), synonym.value());
                s.setByte(s.field("source"), synonym.source().id());
            }
        }
        out.setByte(out.field("config_type"), config.typeCode());
        out.set(out.field("documentation"), includeDocumentation ? config.documentation() : null);
    }
}
