package io.kraft.config;

/**
 * A configuration value is invalid, missing or unreadable. The message is always a single line
 * naming the key, the offending value and what was expected; the broker answers INVALID_CONFIG.
 */
public class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String key;

    public ConfigException(String message) {
        this(null, message, null);
    }

    public ConfigException(String message, Throwable cause) {
        this(null, message, cause);
    }

    protected ConfigException(String key, String message, Throwable cause) {
        super(oneLine(message), cause);
        this.key = key;
    }

    /** A value that does not parse as its type or fails its validator. */
    public static ConfigException invalidValue(String key, String shownValue, String expectation) {
        return new ConfigException(key,
                "Invalid value " + shownValue + " for configuration " + key + ": expected " + expectation, null);
    }

    /** A key without a default that was not given. */
    public static ConfigException missing(String key, String expectation) {
        return new ConfigException(key, "Missing required configuration " + key + ": expected " + expectation, null);
    }

    /** The configuration key at fault, or null when the problem is not about one key. */
    public String key() {
        return key;
    }

    // A value may carry line breaks (a properties continuation, a command-line argument); escape them so
    // the message stays one log line.
    private static String oneLine(String message) {
        return message.replace("\r", "\\r").replace("\n", "\\n");
    }
}
