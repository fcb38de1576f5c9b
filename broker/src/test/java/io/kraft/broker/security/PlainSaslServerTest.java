package io.kraft.broker.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlainSaslServerTest {
    private final Map<String, String> users = Map.of("alice", "alice-secret");

    @Test
    void rightPasswordLogsInWithOrWithoutItsOwnAuthorizationId() throws Exception {
        PlainSaslServer server = new PlainSaslServer(users);
        server.evaluate(bytes("\u0000alice\u0000alice-secret"));
        assertTrue(server.isComplete());
        assertEquals("alice", server.authenticatedUser());
        PlainSaslServer withAuthzid = new PlainSaslServer(users);
        withAuthzid.evaluate(bytes("alice\u0000alice-secret".replaceFirst("^", "alice\u0000")));
        assertEquals("alice", withAuthzid.authenticatedUser());
    }

    @Test
    void wrongPasswordsUnknownUsersAndBadMessagesFail() {
        for (String message : new String[] {"\u0000alice\u0000wrong", "\u0000bob\u0000alice-secret",
            "bob\u0000alice\u0000alice-secret", "alice-secret", "\u0000\u0000pw", "\u0000alice\u0000"}) {
            SaslAuthenticationFailure failure = assertThrows(SaslAuthenticationFailure.class,
                    () -> new PlainSaslServer(users).evaluate(bytes(message)));
            assertTrue(failure.getMessage().startsWith("Authentication failed"), failure.getMessage());
            assertTrue(!failure.getMessage().contains("alice-secret"), "no password in " + failure.getMessage());
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
