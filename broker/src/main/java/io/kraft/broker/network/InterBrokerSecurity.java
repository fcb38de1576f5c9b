package io.kraft.broker.network;

import io.kraft.broker.security.SaslClientLogin;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How this broker connects to other brokers' inter-broker listener as a client (followers fetching from leaders):
 * TLS on an SSL or SASL_SSL listener, a SASL login on a SASL_PLAINTEXT or SASL_SSL one.
 */
public record InterBrokerSecurity(Optional<SslContextFactory.ClientTls> tls, Optional<SaslClientLogin> sasl) {
    /** Plaintext, no login. */
    public static final InterBrokerSecurity PLAINTEXT = new InterBrokerSecurity(Optional.empty(), Optional.empty());

    public InterBrokerSecurity {
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(sasl, "sasl");
    }

    /**
     * The client side of {@code listener}, from the node's properties.
     *
     * @throws io.kraft.config.ConfigException naming the key that is missing or wrong
     */
    public static InterBrokerSecurity forListener(Listeners.Listener listener, Map<String, String> props) {
        Optional<SslContextFactory.ClientTls> tls = listener.protocol().tls()
                ? Optional.of(SslContextFactory.client(SslSettings.forListener(listener.name(), props)))
                : Optional.empty();
        Optional<SaslClientLogin> sasl = listener.protocol().sasl()
                ? Optional.of(SaslSettings.interBrokerLogin(listener.name(), props)) : Optional.empty();
        return new InterBrokerSecurity(tls, sasl);
    }
}
