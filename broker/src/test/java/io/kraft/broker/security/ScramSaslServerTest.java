package io.kraft.broker.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.ScramCredential;
import io.kraft.metadata.image.ScramFunctions;
import io.kraft.metadata.image.ScramMechanism;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SCRAM server state machine against the RFC test vectors, and against a client computed here. */
class ScramSaslServerTest {

    /** RFC 5802 section 5: SCRAM-SHA-1, user "user", password "pencil". */
    @Test
    void answersRfc5802Vector() throws Exception {
        ScramFunctions sha1 = new ScramFunctions("SHA-1", "HmacSHA1");
        ScramSaslServer server = server("SCRAM-SHA-1", sha1, "user", "pencil", "QSXCR+Q6sek8bf92", 4096,
                "3rfcNHYJY1ZVvWVs7j");
        assertEquals("r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096",
                step(server, "n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL"));
        assertEquals(ScramSaslServer.State.RECEIVE_CLIENT_FINAL, server.state());
        assertEquals("v=rmF9pqV8S7suAoZWja4dJRkFsKQ=", step(server,
                "c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts="));
        assertTrue(server.isComplete());
        assertEquals("user", server.authenticatedUser());
    }

    /** RFC 7677 section 3: SCRAM-SHA-256, user "user", password "pencil". */
    @Test
    void answersRfc7677Vector() throws Exception {
        ScramSaslServer server = server("SCRAM-SHA-256", ScramFunctions.of(ScramMechanism.SCRAM_SHA_256), "user",
                "pencil", "W22ZaJ0SNY7soEsUEjb6gQ==", 4096, "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
        assertEquals("r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096",
                step(server, "n,,n=user,r=rOprNGfwEbeRWgbNEkqO"));
        assertEquals("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=", step(server,
                "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                        + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="));
        assertTrue(server.isComplete());
    }

    @Test
    void wrongProofFailsAndTheExchangeStaysFailed() throws Exception {
        ScramSaslServer server = server("SCRAM-SHA-256", ScramFunctions.of(ScramMechanism.SCRAM_SHA_256), "user",
                "pencil", "W22ZaJ0SNY7soEsUEjb6gQ==", 4096, "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
        step(server, "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
        SaslAuthenticationFailure failure = assertThrows(SaslAuthenticationFailure.class, () -> step(server,
                "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                        + "p=AAzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="));
        assertTrue(failure.getMessage().contains("invalid credentials"), failure.getMessage());
        assertEquals(ScramSaslServer.State.FAILED, server.state());
        assertFalse(server.isComplete());
        assertThrows(SaslAuthenticationFailure.class, () -> step(server, "anything"));
    }

    @Test
    void sha512ClientComputedHereLogsIn() throws Exception {
        ScramCredential credential = ScramFunctions.credentialForPassword("alice", ScramMechanism.SCRAM_SHA_512,
                "alice-secret", 8192);
        ScramSaslServer server = new ScramSaslServer(ScramMechanism.SCRAM_SHA_512,
                Map.of("alice", credential)::get);
        client(server, "alice", "alice-secret", ScramMechanism.SCRAM_SHA_512, "n,,");
        assertEquals(ScramSaslServer.State.COMPLETE, server.state());
        assertEquals("alice", server.authenticatedUser());
    }

    @Test
    void wrongPasswordOfAKnownUserFails() {
        ScramCredential credential = ScramFunctions.credentialForPassword("alice", ScramMechanism.SCRAM_SHA_256,
                "alice-secret", 4096);
        ScramSaslServer server = new ScramSaslServer(ScramMechanism.SCRAM_SHA_256, Map.of("alice", credential)::get);
        assertThrows(SaslAuthenticationFailure.class,
                () -> client(server, "alice", "wrong", ScramMechanism.SCRAM_SHA_256, "n,,"));
    }

    @Test
    void refusesUnknownUsersChannelBindingDelegationTokensAndForeignAuthorizationIds() {
        ScramCredential credential = ScramFunctions.credentialForPassword("a,b=c", ScramMechanism.SCRAM_SHA_256,
                "pw", 4096);
        Map<String, ScramCredential> users = Map.of("a,b=c", credential);
        assertThrows(SaslAuthenticationFailure.class, () -> step(new ScramSaslServer(ScramMechanism.SCRAM_SHA_256,
                users::get), "n,,n=bob,r=abc"));
        assertThrows(SaslAuthenticationFailure.class, () -> step(new ScramSaslServer(ScramMechanism.SCRAM_SHA_256,
                users::get), "p=tls-unique,,n=a=2Cb=3Dc,r=abc"));
        assertThrows(SaslAuthenticationFailure.class, () -> step(new ScramSaslServer(ScramMechanism.SCRAM_SHA_256,
                users::get), "n,,n=a=2Cb=3Dc,r=abc,tokenauth=true"));
        assertThrows(SaslAuthenticationFailure.class, () -> step(new ScramSaslServer(ScramMechanism.SCRAM_SHA_256,
                users::get), "n,a=bob,n=a=2Cb=3Dc,r=abc"));
        assertThrows(SaslAuthenticationFailure.class, () -> step(new ScramSaslServer(ScramMechanism.SCRAM_SHA_256,
                users::get), "n,,n=a=2Xb,r=abc"));
    }

    @Test
    void escapedUserNamesAndTheirOwnAuthorizationIdLogIn() throws Exception {
        ScramCredential credential = ScramFunctions.credentialForPassword("a,b=c", ScramMechanism.SCRAM_SHA_256,
                "pw", 4096);
        ScramSaslServer server = new ScramSaslServer(ScramMechanism.SCRAM_SHA_256, Map.of("a,b=c", credential)::get);
        client(server, "a,b=c", "pw", ScramMechanism.SCRAM_SHA_256, "n,a=a=2Cb=3Dc,");
        assertEquals("a,b=c", server.authenticatedUser());
    }

    /** Runs a whole exchange as a client would, checking the server's signature as a client does. */
    private static void client(ScramSaslServer server, String user, String password, ScramMechanism mechanism,
                          String gs2Header) throws SaslAuthenticationFailure {
        ScramFunctions f = ScramFunctions.of(mechanism);
        String clientNonce = "clientnonce123";
        String bare = "n=" + user.replace("=", "=3D").replace(",", "=2C") + ",r=" + clientNonce;
        String serverFirst = step(server, gs2Header + bare);
        String[] parts = serverFirst.split(",");
        String nonce = parts[0].substring(2);
        byte[] salt = Base64.getDecoder().decode(parts[1].substring(2));
        int iterations = Integer.parseInt(parts[2].substring(2));
        byte[] salted = f.hi(password.getBytes(StandardCharsets.UTF_8), salt, iterations);
        String withoutProof = "c=" + Base64.getEncoder().encodeToString(gs2Header.getBytes(StandardCharsets.UTF_8))
                + ",r=" + nonce;
        byte[] authMessage = (bare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] clientKey = f.clientKey(salted);
        byte[] proof = ScramFunctions.xor(clientKey, f.hmac(f.storedKey(clientKey), authMessage));
        String expected = Base64.getEncoder().encodeToString(f.hmac(f.serverKey(salted), authMessage));
        String serverFinal = step(server, withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof));
        assertEquals("v=" + expected, serverFinal);
    }

    private static ScramSaslServer server(String name, ScramFunctions functions, String user, String password,
                                          String saltBase64, int iterations, String serverNonce) {
        byte[] salt = Base64.getDecoder().decode(saltBase64);
        byte[] salted = functions.hi(password.getBytes(StandardCharsets.UTF_8), salt, iterations);
        ScramCredential credential = new ScramCredential(user, ScramMechanism.SCRAM_SHA_256, salt,
                functions.storedKey(functions.clientKey(salted)), functions.serverKey(salted), iterations);
        return new ScramSaslServer(name, functions, Map.of(user, credential)::get, () -> serverNonce);
    }

    private static String step(ScramSaslServer server, String message) throws SaslAuthenticationFailure {
        return new String(server.evaluate(message.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }
}
