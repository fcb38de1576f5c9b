package io.kraft.broker.quota;

import static io.kraft.config.ConfigType.INT;
import static io.kraft.config.Importance.LOW;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import io.kraft.config.Validator;
import java.util.Map;

/**
 * How quota rates are measured, with Kafka's keys: {@code quota.window.num} samples (11) of
 * {@code quota.window.size.seconds} each (1).
 */
public record QuotaWindows(int samples, long windowMs) {
    public static final String NUM = "quota.window.num";
    public static final String SIZE_SECONDS = "quota.window.size.seconds";
    public static final QuotaWindows DEFAULT = new QuotaWindows(11, 1000);

    public QuotaWindows {
        if (samples < 1) {
            throw new IllegalArgumentException(NUM + " must be at least 1, not " + samples);
        }
        if (windowMs < 1) {
            throw new IllegalArgumentException(SIZE_SECONDS + " must be at least 1");
        }
    }

    public static ConfigDef definition() {
        return new ConfigDef()
                .define(NUM, INT, DEFAULT.samples, Validator.atLeast(1), LOW,
                        "The number of samples client quota rates are measured over.")
                .define(SIZE_SECONDS, INT, (int) (DEFAULT.windowMs / 1000), Validator.atLeast(1), LOW,
                        "The length of each sample of client quota rates, in seconds.");
    }

    /** @throws io.kraft.config.ConfigException (one line) for a value that is not a whole number of at least 1 */
    public static QuotaWindows fromProperties(Map<String, String> properties) {
        ParsedConfig config = definition().parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        return new QuotaWindows(config.getInt(NUM), config.getInt(SIZE_SECONDS) * 1000L);
    }
}
