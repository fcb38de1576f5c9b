package io.kraft.broker.network;

import io.kraft.broker.security.KafkaPrincipal;
import java.util.Objects;

/**
 * The security state of one client connection: its listener's protocol and who it has authenticated as. Starts
 * {@link KafkaPrincipal#ANONYMOUS}; a TLS client certificate or a SASL exchange sets the principal.
 */
public final class ConnectionSession {
    private final SecurityProtocol protocol;
    private volatile KafkaPrincipal principal = KafkaPrincipal.ANONYMOUS;

    public ConnectionSession(SecurityProtocol protocol) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
    }

    public SecurityProtocol protocol() {
        return protocol;
    }

    public KafkaPrincipal principal() {
        return principal;
    }

    /** Records who the connection authenticated as. */
    public void authenticated(KafkaPrincipal who) {
        this.principal = Objects.requireNonNull(who, "who");
    }
}
