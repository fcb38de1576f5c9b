package io.kraft.broker.network;

import io.kraft.broker.security.KafkaPrincipal;
import java.util.Objects;
import java.util.Optional;

/**
 * The security state of one client connection: its listener's protocol and who it has authenticated as. Starts
 * {@link KafkaPrincipal#ANONYMOUS}; a TLS client certificate or a SASL exchange sets the principal.
 */
public final class ConnectionSession {
    private final SecurityProtocol protocol;
    private volatile KafkaPrincipal principal = KafkaPrincipal.ANONYMOUS;
    /** The SASL exchange's state on a SASL listener, else null. */
    private volatile SaslAuthenticator sasl;

    public ConnectionSession(SecurityProtocol protocol) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
    }

    /** The connection's SASL authentication, empty on a listener without SASL. */
    public Optional<SaslAuthenticator> sasl() {
        return Optional.ofNullable(sasl);
    }

    void sasl(SaslAuthenticator authenticator) {
        this.sasl = authenticator;
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
