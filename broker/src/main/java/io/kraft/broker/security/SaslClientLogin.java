package io.kraft.broker.security;

import io.kraft.metadata.image.ScramMechanism;
import java.util.Objects;

/**
 * How this broker logs in as a client on a SASL inter-broker listener: {@code sasl.mechanism.inter.broker.protocol}
 * and the {@code username} and {@code password} of that listener's JAAS entry for the mechanism.
 */
public record SaslClientLogin(String mechanism, String username, String password) {
    public SaslClientLogin {
        Objects.requireNonNull(mechanism, "mechanism");
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
    }

    /** A fresh client side of the exchange. */
    public SaslClientMechanism newExchange() {
        if (mechanism.equals(PlainSaslServer.MECHANISM)) {
            return new PlainSaslClient(username, password);
        }
        return new ScramSaslClient(ScramMechanism.forMechanismName(mechanism).orElseThrow(() ->
                new IllegalArgumentException("SASL mechanism " + mechanism + " is not served")), username, password);
    }

    /** Never the password. */
    @Override
    public String toString() {
        return "SaslClientLogin[" + mechanism + ", user " + username + "]";
    }
}
