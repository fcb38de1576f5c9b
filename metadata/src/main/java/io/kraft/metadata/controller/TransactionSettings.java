package io.kraft.metadata.controller;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ConfigType;
import io.kraft.config.Importance;
import io.kraft.config.ParsedConfig;
import io.kraft.config.Validator;
import java.util.Map;

/**
 * The transaction coordinator's settings, with Kafka's names and defaults.
 *
 * @param maxTimeoutMs   transaction.max.timeout.ms: the longest transaction timeout a producer may ask for
 * @param idExpirationMs transactional.id.expiration.ms: a transactional id with no open transaction and no change for
 *                       this long is forgotten
 */
public record TransactionSettings(int maxTimeoutMs, long idExpirationMs) {
    public static final String TRANSACTION_MAX_TIMEOUT_MS = "transaction.max.timeout.ms";
    public static final String TRANSACTIONAL_ID_EXPIRATION_MS = "transactional.id.expiration.ms";
    public static final TransactionSettings DEFAULTS = new TransactionSettings(900_000, 604_800_000L);

    private static final String NO_EFFECT = "Accepted from Kafka configurations and ignored: a transaction's state is"
            + " kept in the metadata log, not in an internal topic.";

    private static final ConfigDef DEFINITION = new ConfigDef()
            .define(TRANSACTION_MAX_TIMEOUT_MS, ConfigType.INT, DEFAULTS.maxTimeoutMs, Validator.atLeast(1),
                    Importance.HIGH, "The longest transaction timeout a producer may ask for; a longer one is refused"
                            + " with INVALID_TRANSACTION_TIMEOUT.")
            .define(TRANSACTIONAL_ID_EXPIRATION_MS, ConfigType.INT, (int) DEFAULTS.idExpirationMs, Validator.atLeast(1),
                    Importance.HIGH, "How long the coordinator keeps a transactional id with no open transaction and"
                            + " no change before forgetting it.")
            // Kafka keeps transaction state in the __transaction_state topic and users' server.properties set these;
            // here the state is in the metadata log, so they are accepted (no unknown-key warning) and have no effect.
            .define("transaction.state.log.replication.factor", ConfigType.INT, 3, Validator.atLeast(1),
                    Importance.LOW, NO_EFFECT)
            .define("transaction.state.log.min.isr", ConfigType.INT, 2, Validator.atLeast(1), Importance.LOW, NO_EFFECT)
            .define("transaction.state.log.num.partitions", ConfigType.INT, 50, Validator.atLeast(1),
                    Importance.LOW, NO_EFFECT)
            .define("transaction.state.log.segment.bytes", ConfigType.INT, 104_857_600, Validator.atLeast(1),
                    Importance.LOW, NO_EFFECT);

    public TransactionSettings {
        if (maxTimeoutMs < 1) {
            throw new IllegalArgumentException(TRANSACTION_MAX_TIMEOUT_MS + " must be positive: " + maxTimeoutMs);
        }
        if (idExpirationMs < 1) {
            throw new IllegalArgumentException(TRANSACTIONAL_ID_EXPIRATION_MS + " must be positive: " + idExpirationMs);
        }
    }

    public static ConfigDef definition() {
        return DEFINITION;
    }

    /** Reads the keys from a node's properties; absent keys take Kafka's defaults. */
    public static TransactionSettings fromProperties(Map<String, String> properties) {
        ParsedConfig parsed = DEFINITION.parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        return new TransactionSettings(parsed.getInt(TRANSACTION_MAX_TIMEOUT_MS),
                parsed.getInt(TRANSACTIONAL_ID_EXPIRATION_MS));
    }
}
