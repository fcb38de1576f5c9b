package io.kraft.config;

/** A key that the definition does not know, where unknown keys are rejected (topic configs). */
public final class UnknownConfigException extends ConfigException {
    private static final long serialVersionUID = 1L;

    public UnknownConfigException(String kind, String key) {
        super(key, "Unknown " + kind + " configuration " + key, null);
    }
}
