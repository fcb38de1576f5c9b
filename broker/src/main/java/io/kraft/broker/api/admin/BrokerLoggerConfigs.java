package io.kraft.broker.api.admin;

import io.kraft.broker.config.BrokerLoggers;
import io.kraft.broker.protocol.message.DescribeConfigsResponse.DescribeConfigsResourceResult;
import io.kraft.broker.protocol.message.IncrementalAlterConfigsRequest.AlterableConfig;
import io.kraft.config.ConfigSource;
import io.kraft.metadata.controller.ApiError;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The BROKER_LOGGER config resource (type 8, KIP-412): this node's log levels, described and changed at run time
 * without the controller (they are the process's own and not persisted), as {@code kafka-configs.sh --entity-type
 * broker-loggers} expects.
 */
final class BrokerLoggerConfigs {
    /** The resource type code of BROKER_LOGGER in DescribeConfigs and IncrementalAlterConfigs. */
    static final byte RESOURCE_TYPE = 8;
    private static final Logger LOG = LoggerFactory.getLogger(BrokerLoggerConfigs.class);
    private static final byte STRING_TYPE = 2;

    private final int brokerId;
    private final BrokerLoggers loggers;

    BrokerLoggerConfigs(int brokerId, BrokerLoggers loggers) {
        this.brokerId = brokerId;
        this.loggers = Objects.requireNonNull(loggers, "loggers");
    }

    /** Every logger and its level, or only the named ones; an error for another node's resource. */
    Result<List<DescribeConfigsResourceResult>> describe(String resourceName, List<String> keys) {
        ApiError wrongNode = checkNode(resourceName);
        if (wrongNode != null) {
            return Result.failed(wrongNode);
        }
        Map<String, String> levels;
        try {
            levels = loggers.levels();
        } catch (UnsupportedOperationException e) {
            return Result.failed(ApiError.of(Errors.INVALID_REQUEST, e.getMessage()));
        }
        Set<String> wanted = keys == null || keys.isEmpty() ? null : new HashSet<>(keys);
        List<DescribeConfigsResourceResult> out = new ArrayList<>();
        levels.forEach((name, level) -> {
            if (wanted == null || wanted.contains(name)) {
                out.add(new DescribeConfigsResourceResult().setName(name).setValue(level).setReadOnly(false)
                        .setConfigSource(ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG.id()).setIsSensitive(false)
                        .setConfigType(STRING_TYPE));
            }
        });
        return Result.of(out);
    }

    /** Checks every operation, then (unless {@code validateOnly}) applies them in order. */
    ApiError alter(String resourceName, List<AlterableConfig> configs, boolean validateOnly) {
        ApiError wrongNode = checkNode(resourceName);
        if (wrongNode != null) {
            return wrongNode;
        }
        Map<String, String> levels;
        try {
            levels = loggers.levels();
        } catch (UnsupportedOperationException e) {
            return ApiError.of(Errors.INVALID_REQUEST, e.getMessage());
        }
        for (AlterableConfig config : configs) {
            ApiError invalid = check(config, levels);
            if (invalid != null) {
                return invalid;
            }
        }
        if (validateOnly) {
            return ApiError.NONE;
        }
        for (AlterableConfig config : configs) {
            if (config.configOperation() == IncrementalAlterConfigsHandler.SET) {
                String level = config.value().toUpperCase(Locale.ROOT);
                loggers.setLevel(config.name(), level);
                LOG.info("Broker {} set the level of logger {} to {}", brokerId, config.name(), level);
            } else {
                loggers.unsetLevel(config.name());
                LOG.info("Broker {} removed the level of logger {}: it inherits its parent's", brokerId,
                        config.name());
            }
        }
        return ApiError.NONE;
    }

    private ApiError check(AlterableConfig config, Map<String, String> levels) {
        String name = config.name();
        if (!known(name, levels.keySet())) {
            return ApiError.of(Errors.INVALID_CONFIG, "Logger " + name + " does not exist (nor any logger below it)");
        }
        switch (config.configOperation()) {
            case IncrementalAlterConfigsHandler.SET -> {
                String value = config.value();
                if (value == null || !BrokerLoggers.LEVELS.contains(value.toUpperCase(Locale.ROOT))) {
                    return ApiError.of(Errors.INVALID_CONFIG, "Cannot set the level of logger " + name + " to "
                            + value + ": valid levels are " + String.join(", ", BrokerLoggers.LEVELS));
                }
                return null;
            }
            case IncrementalAlterConfigsHandler.DELETE -> {
                return BrokerLoggers.ROOT.equals(name)
                        ? ApiError.of(Errors.INVALID_CONFIG, "The level of the root logger cannot be removed")
                        : null;
            }
            default -> {
                return ApiError.of(Errors.INVALID_REQUEST, "Broker loggers take only SET and DELETE, not operation "
                        + config.configOperation() + " on " + name);
            }
        }
    }

    /** A logger the process has, or a package holding one (setting it sets every logger below). */
    private static boolean known(String name, Set<String> loggers) {
        if (loggers.contains(name)) {
            return true;
        }
        String prefix = name + ".";
        return loggers.stream().anyMatch(logger -> logger.startsWith(prefix));
    }

    private ApiError checkNode(String resourceName) {
        if (Integer.toString(brokerId).equals(resourceName)) {
            return null;
        }
        return ApiError.of(Errors.INVALID_REQUEST, "Broker " + brokerId + " has only its own loggers (resource '"
                + brokerId + "'), not '" + resourceName + "'");
    }

    /** A value or the error that stands instead of it. */
    record Result<T>(T value, ApiError error) {
        static <T> Result<T> of(T value) {
            return new Result<>(value, ApiError.NONE);
        }

        static <T> Result<T> failed(ApiError error) {
            return new Result<>(null, error);
        }
    }
}
