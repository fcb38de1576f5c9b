package io.kraft.broker.network;

import io.kraft.config.ConfigException;
import java.util.Locale;

/** Kafka's security protocols of a listener, by the names {@code listener.security.protocol.map} uses. */
public enum SecurityProtocol {
    PLAINTEXT(false, false),
    SSL(true, false),
    SASL_PLAINTEXT(false, true),
    SASL_SSL(true, true);

    private final boolean tls;
    private final boolean sasl;

    SecurityProtocol(boolean tls, boolean sasl) {
        this.tls = tls;
        this.sasl = sasl;
    }

    /** Whether connections on such a listener are encrypted with TLS. */
    public boolean tls() {
        return tls;
    }

    /** Whether clients authenticate with SASL on such a listener. */
    public boolean sasl() {
        return sasl;
    }

    /**
     * The protocol named {@code name} (case-insensitive, as Kafka accepts it).
     *
     * @throws ConfigException naming {@code key} if no protocol has that name
     */
    public static SecurityProtocol forName(String name, String key) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("Unknown security protocol '" + name + "' in " + key
                    + ": expected one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL");
        }
    }
}
