package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.security.KafkaPrincipal;
import io.kraft.broker.security.ScramSaslClient;
import io.kraft.metadata.image.ScramCredential;
import io.kraft.metadata.image.ScramFunctions;
import io.kraft.metadata.image.ScramMechanism;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-connection SASL state machine driven by hand: which requests it lets through, and when. */
class SaslAuthenticatorTest {
    private final AtomicLong nanos = new AtomicLong(1_000);
    private final SaslSettings settings = new SaslSettings("SASL", List.of("PLAIN", "SCRAM-SHA-256"),
            Map.of("alice", "alice-secret", "bob", "bob-secret"), 10_000);
    private final ScramCredential carol = ScramFunctions.credentialForPassword("carol", ScramMechanism.SCRAM_SHA_256,
            "carol-secret", 4096);
    private final ConnectionSession session = new ConnectionSession(SecurityProtocol.SASL_PLAINTEXT);
    private final SaslAuthenticator sasl = new SaslAuthenticator(settings,
            (user, mechanism) -> user.equals("carol") ? carol : null, session, new InetSocketAddress(1234), nanos::get);

    @Test
    void onlyTheSaslApisAndApiVersionsComeBeforeAuthentication() {
        assertTrue(sasl.refusal(ApiKey.API_VERSIONS, nanos.get()).isEmpty());
        assertTrue(sasl.refusal(ApiKey.SASL_HANDSHAKE, nanos.get()).isEmpty());
        assertEquals("Metadata before SASL authentication", sasl.refusal(ApiKey.METADATA, nanos.get()).orElseThrow());
        assertTrue(sasl.handshake((short) 1, "PLAIN").accepted());
        assertEquals(SaslAuthenticator.State.AUTHENTICATE, sasl.state());
        assertTrue(sasl.refusal(ApiKey.SASL_AUTHENTICATE, nanos.get()).isEmpty());
        assertTrue(sasl.refusal(ApiKey.PRODUCE, nanos.get()).isPresent());
        SaslAuthenticator.AuthenticateOutcome outcome = sasl.authenticate((short) 2, plain("alice", "alice-secret"));
        assertFalse(outcome.failed());
        assertEquals(10_000, outcome.sessionLifetimeMs());
        assertEquals(KafkaPrincipal.user("alice"), session.principal());
        assertTrue(sasl.refusal(ApiKey.PRODUCE, nanos.get()).isEmpty());
    }

    @Test
    void anExpiredSessionServesOnlyAReauthenticationOfTheSamePrincipal() {
        sasl.handshake((short) 1, "PLAIN");
        sasl.authenticate((short) 1, plain("alice", "alice-secret"));
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(10_000));
        assertTrue(sasl.refusal(ApiKey.FETCH, nanos.get()).orElseThrow().contains("after the SASL session expired"));
        assertTrue(sasl.refusal(ApiKey.SASL_HANDSHAKE, nanos.get()).isEmpty());
        assertTrue(sasl.handshake((short) 1, "PLAIN").accepted());
        assertFalse(sasl.authenticate((short) 1, plain("alice", "alice-secret")).failed());
        assertTrue(sasl.refusal(ApiKey.FETCH, nanos.get()).isEmpty(), "a new session");

        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(10_000));
        sasl.handshake((short) 1, "PLAIN");
        SaslAuthenticator.AuthenticateOutcome other = sasl.authenticate((short) 1, plain("bob", "bob-secret"));
        assertTrue(other.failed());
        assertTrue(other.failure().startsWith("Cannot change principals during re-authentication"), other.failure());
        assertEquals(SaslAuthenticator.State.FAILED, sasl.state());
        assertEquals(KafkaPrincipal.user("alice"), session.principal());
    }

    @Test
    void unsupportedMechanismsVersionZeroAndWrongPasswordsFail() {
        SaslAuthenticator.HandshakeOutcome unsupported = sasl.handshake((short) 1, "GSSAPI");
        assertFalse(unsupported.accepted());
        assertEquals(List.of("PLAIN", "SCRAM-SHA-256"), unsupported.mechanisms());
        assertTrue(sasl.refusal(ApiKey.API_VERSIONS, nanos.get()).isPresent(), "a failed exchange serves nothing");

        SaslAuthenticator v0 = new SaslAuthenticator(settings, ScramCredentials.NONE,
                new ConnectionSession(SecurityProtocol.SASL_PLAINTEXT), new InetSocketAddress(1), nanos::get);
        assertTrue(v0.handshake((short) 0, "PLAIN").illegalState());

        SaslAuthenticator wrong = new SaslAuthenticator(settings, ScramCredentials.NONE,
                new ConnectionSession(SecurityProtocol.SASL_PLAINTEXT), new InetSocketAddress(1), nanos::get);
        wrong.handshake((short) 1, "PLAIN");
        assertEquals("Authentication failed: Invalid username or password",
                wrong.authenticate((short) 2, plain("alice", "nope")).failure());
    }

    @Test
    void scramTakesTwoRoundsAndAVersionZeroClientGetsNoLifetime() throws Exception {
        sasl.handshake((short) 1, "SCRAM-SHA-256");
        ScramSaslClient client = new ScramSaslClient(ScramMechanism.SCRAM_SHA_256, "carol", "carol-secret");
        SaslAuthenticator.AuthenticateOutcome first = sasl.authenticate((short) 0, client.initialResponse());
        assertFalse(first.failed());
        assertEquals(SaslAuthenticator.State.AUTHENTICATE, sasl.state());
        SaslAuthenticator.AuthenticateOutcome last = sasl.authenticate((short) 0, client.evaluate(first.serverBytes()));
        client.evaluate(last.serverBytes());
        assertTrue(client.isComplete(), "the client checked the server's signature");
        assertEquals(0, last.sessionLifetimeMs());
        nanos.addAndGet(TimeUnit.DAYS.toNanos(1));
        assertTrue(sasl.refusal(ApiKey.FETCH, nanos.get()).isEmpty(), "v0 cannot learn a lifetime: none is enforced");
    }

    private static byte[] plain(String user, String password) {
        return ("\u0000" + user + "\u0000" + password).getBytes(StandardCharsets.UTF_8);
    }
}
