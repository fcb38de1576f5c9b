package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.LogText;
import io.kraft.broker.security.KafkaPrincipal;
import io.kraft.broker.security.PlainSaslServer;
import io.kraft.broker.security.SaslAuthenticationFailure;
import io.kraft.broker.security.SaslServerMechanism;
import io.kraft.broker.security.ScramSaslServer;
import io.kraft.metadata.image.ScramMechanism;
import java.net.SocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One SASL connection's authentication as a state machine, driven by its SaslHandshake and SaslAuthenticate requests
 * (KIP-43, KIP-152) and by time (re-authentication, KIP-368):
 * <pre>
 * HANDSHAKE --SaslHandshake(enabled mechanism)--> AUTHENTICATE --SaslAuthenticate*--> AUTHENTICATED
 * AUTHENTICATED --SaslHandshake (same mechanism)--> REAUTHENTICATE --SaslAuthenticate*--> AUTHENTICATED
 * any --failure--> FAILED (the answer goes back, then the connection closes)
 * </pre>
 * Until the first authentication only ApiVersions, SaslHandshake and SaslAuthenticate are served; once a session
 * has expired ({@code connections.max.reauth.ms}) only a re-authentication is. Anything else closes the connection,
 * as in Kafka. Methods are synchronized: a connection's requests run one at a time, but on different pool threads,
 * and the request channel checks {@link #mayServe} from the event loop.
 */
public final class SaslAuthenticator {
    private static final Logger LOG = LoggerFactory.getLogger(SaslAuthenticator.class);

    /** Where a connection's authentication is. */
    public enum State { HANDSHAKE, AUTHENTICATE, AUTHENTICATED, REAUTHENTICATE, FAILED }

    /** The answer to a SaslHandshake: an error (with the enabled mechanisms) or NONE. */
    public record HandshakeOutcome(boolean accepted, boolean illegalState, String message, List<String> mechanisms) {
    }

    /**
     * The answer to a SaslAuthenticate: the server's next bytes, or a failure to report before closing.
     *
     * @param sessionLifetimeMs when complete: how long the session lasts (0 with re-authentication off)
     */
    public record AuthenticateOutcome(byte[] serverBytes, String failure, boolean illegalState, long sessionLifetimeMs) {
        public boolean failed() {
            return failure != null;
        }
    }

    private final SaslSettings settings;
    private final ScramCredentials credentials;
    private final ConnectionSession session;
    private final SocketAddress client;
    private final LongSupplier nanoClock;
    private State state = State.HANDSHAKE;
    private SaslServerMechanism exchange;
    private String mechanism;
    /** System.nanoTime() at which the session expires; Long.MAX_VALUE without re-authentication. */
    private long sessionExpiresNanos = Long.MAX_VALUE;

    public SaslAuthenticator(SaslSettings settings, ScramCredentials credentials, ConnectionSession session,
                             SocketAddress client, LongSupplier nanoClock) {
        this.settings = settings;
        this.credentials = credentials;
        this.session = session;
        this.client = client;
        this.nanoClock = nanoClock;
    }

    public synchronized State state() {
        return state;
    }

    /**
     * Whether a request of {@code api} may be served now; when not, the connection must close.
     *
     * @return empty if it may, else why not (for the one log line)
     */
    public synchronized Optional<String> refusal(ApiKey api, long nowNanos) {
        switch (state) {
            case HANDSHAKE:
                return api == ApiKey.API_VERSIONS || api == ApiKey.SASL_HANDSHAKE ? Optional.empty()
                        : Optional.of(api.apiName() + " before SASL authentication");
            case AUTHENTICATE:
                return api == ApiKey.SASL_AUTHENTICATE ? Optional.empty()
                        : Optional.of(api.apiName() + " during SASL authentication");
            case AUTHENTICATED:
            case REAUTHENTICATE:
                if (api == ApiKey.SASL_HANDSHAKE || api == ApiKey.SASL_AUTHENTICATE || nowNanos - sessionExpiresNanos < 0) {
                    return Optional.empty();
                }
                return Optional.of(api.apiName() + " after the SASL session expired ("
                        + SaslSettings.CONNECTIONS_MAX_REAUTH_MS + "=" + settings.reauthMs() + ")");
            default:
                return Optional.of(api.apiName() + " after a failed SASL authentication");
        }
    }

    /** SaslHandshake: chooses the mechanism of the exchange that follows. */
    public synchronized HandshakeOutcome handshake(short version, String requested) {
        List<String> enabled = settings.enabledMechanisms();
        if (state != State.HANDSHAKE && state != State.AUTHENTICATED) {
            state = State.FAILED;
            return new HandshakeOutcome(false, true, "Unexpected SaslHandshake in state " + state, enabled);
        }
        if (version == 0) {
            // v0 is followed by raw SASL tokens without Kafka framing; kafka-clients 1.0 and later send v1 and wrap
            // the tokens in SaslAuthenticate, which is the only framing served here.
            state = State.FAILED;
            return new HandshakeOutcome(false, true, "SaslHandshake v0 (unframed SASL tokens) is not supported;"
                    + " use v1 with SaslAuthenticate", enabled);
        }
        boolean reauthentication = state == State.AUTHENTICATED;
        if (!enabled.contains(requested)) {
            state = State.FAILED;
            logFailure(requested, null, "Unsupported SASL mechanism " + requested);
            return new HandshakeOutcome(false, false, "Unsupported SASL mechanism " + requested + "; enabled: "
                    + String.join(", ", enabled), enabled);
        }
        if (reauthentication && !requested.equals(mechanism)) {
            state = State.FAILED;
            logFailure(requested, session.principal().name(), "re-authentication changed the mechanism");
            return new HandshakeOutcome(false, false, "Re-authentication must use mechanism " + mechanism
                    + ", not " + requested, enabled);
        }
        mechanism = requested;
        exchange = newExchange(requested);
        state = reauthentication ? State.REAUTHENTICATE : State.AUTHENTICATE;
        return new HandshakeOutcome(true, false, null, enabled);
    }

    /** SaslAuthenticate: one token of the exchange. */
    public synchronized AuthenticateOutcome authenticate(short version, byte[] token) {
        if (state != State.AUTHENTICATE && state != State.REAUTHENTICATE) {
            State was = state;
            state = State.FAILED;
            return new AuthenticateOutcome(new byte[0], "Unexpected SaslAuthenticate in state " + was, true, 0);
        }
        byte[] answer;
        try {
            answer = exchange.evaluate(token);
        } catch (SaslAuthenticationFailure e) {
            boolean reauthentication = state == State.REAUTHENTICATE;
            state = State.FAILED;
            logFailure(mechanism, claimedUser(), (reauthentication ? "re-authentication: " : "") + e.getMessage());
            return new AuthenticateOutcome(new byte[0], e.getMessage(), false, 0);
        }
        if (!exchange.isComplete()) {
            return new AuthenticateOutcome(answer, null, false, 0);
        }
        KafkaPrincipal principal = KafkaPrincipal.user(exchange.authenticatedUser());
        if (state == State.REAUTHENTICATE && !principal.equals(session.principal())) {
            state = State.FAILED;
            String message = "Cannot change principals during re-authentication from " + session.principal() + ": "
                    + principal;
            logFailure(mechanism, principal.name(), message);
            return new AuthenticateOutcome(new byte[0], message, false, 0);
        }
        session.authenticated(principal);
        state = State.AUTHENTICATED;
        exchange = null;
        long lifetimeMs = settings.reauthMs();
        // A v0 client cannot learn the lifetime, so it would not re-authenticate: its session is not bounded.
        sessionExpiresNanos = lifetimeMs > 0 && version >= 1
                ? nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(lifetimeMs) : Long.MAX_VALUE;
        return new AuthenticateOutcome(answer, null, false, version >= 1 ? lifetimeMs : 0);
    }

    private String claimedUser() {
        return exchange instanceof ScramSaslServer scram ? scram.claimedUser() : null;
    }

    private SaslServerMechanism newExchange(String name) {
        if (name.equals(PlainSaslServer.MECHANISM)) {
            return new PlainSaslServer(settings.plainPasswords());
        }
        ScramMechanism scram = ScramMechanism.forMechanismName(name).orElseThrow();
        return new ScramSaslServer(scram, user -> credentials.credential(user, scram));
    }

    /** One line per failed attempt, with the client's address; never a password. */
    private void logFailure(String mechanismName, String user, String why) {
        LOG.info("Failed authentication with {} on listener {} ({}{}): {}", client, settings.listenerName(),
                mechanismName, user == null ? "" : ", user " + LogText.of(user), why);
    }
}
