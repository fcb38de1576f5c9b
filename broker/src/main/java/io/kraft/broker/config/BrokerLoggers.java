package io.kraft.broker.config;

import java.util.Map;
import java.util.ServiceLoader;

/**
 * The process's log levels, as the BROKER_LOGGER config resource shows and changes them (KIP-412,
 * {@code kafka-configs.sh --entity-type broker-loggers}): per node, at run time, not persisted. The logging backend
 * of the process provides it (found with {@link ServiceLoader}); without one, levels cannot be read or changed.
 */
public interface BrokerLoggers {
    /** The name the root logger goes by in this resource, as in Kafka. */
    String ROOT = "root";

    /** The levels Kafka accepts for a logger. */
    java.util.List<String> LEVELS = java.util.List.of("OFF", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE", "ALL");

    /** Every logger the process knows and its effective level, the root logger included. */
    Map<String, String> levels();

    /**
     * Sets a logger's level (a logger not seen yet is created).
     *
     * @param level one of {@link #LEVELS}, case-insensitive
     */
    void setLevel(String logger, String level);

    /** Removes a logger's own level so it inherits its parent's; the root logger keeps its level. */
    void unsetLevel(String logger);

    /** The backend on this process's class path, or {@link #UNAVAILABLE}. */
    static BrokerLoggers load() {
        return ServiceLoader.load(BrokerLoggers.class).findFirst().orElse(UNAVAILABLE);
    }

    /** A process without a backend that can change levels (e.g. a test with a simple slf4j binding). */
    BrokerLoggers UNAVAILABLE = new BrokerLoggers() {
        @Override
        public Map<String, String> levels() {
            throw new UnsupportedOperationException("this process's logging backend cannot list or change levels");
        }

        @Override
        public void setLevel(String logger, String level) {
            levels();
        }

        @Override
        public void unsetLevel(String logger) {
            levels();
        }
    };
}
