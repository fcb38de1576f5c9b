package io.kraft.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Objects;

/**
 * SASL/PLAIN (RFC 4616): one message {@code [authzid] NUL authcid NUL passwd}, checked against the listener's
 * configured users ({@code user_<name>="<password>"} in its {@code PlainLoginModule} JAAS entry).
 */
public final class PlainSaslServer implements SaslServerMechanism {
    public static final String MECHANISM = "PLAIN";
    private static final String INVALID = "Authentication failed: Invalid username or password";

    private final Map<String, String> passwords;
    private String user;

    /** @param passwords each user's password */
    public PlainSaslServer(Map<String, String> passwords) {
        this.passwords = Objects.requireNonNull(passwords, "passwords");
    }

    @Override
    public String mechanismName() {
        return MECHANISM;
    }

    @Override
    public byte[] evaluate(byte[] response) throws SaslAuthenticationFailure {
        if (user != null) {
            throw new SaslAuthenticationFailure("Authentication failed: PLAIN takes one message, and it was sent");
        }
        String message = new String(response, StandardCharsets.UTF_8);
        int first = message.indexOf('\u0000');
        int second = first < 0 ? -1 : message.indexOf('\u0000', first + 1);
        if (first < 0 || second < 0 || message.indexOf('\u0000', second + 1) >= 0) {
            throw new SaslAuthenticationFailure("Authentication failed: PLAIN message must be"
                    + " [authzid] NUL username NUL password");
        }
        String authorizationId = message.substring(0, first);
        String username = message.substring(first + 1, second);
        String password = message.substring(second + 1);
        if (username.isEmpty()) {
            throw new SaslAuthenticationFailure("Authentication failed: username not specified");
        }
        if (password.isEmpty()) {
            throw new SaslAuthenticationFailure("Authentication failed: password not specified");
        }
        if (!authorizationId.isEmpty() && !authorizationId.equals(username)) {
            throw new SaslAuthenticationFailure("Authentication failed: Client requested an authorization id that is"
                    + " different from username");
        }
        String expected = passwords.get(username);
        // Compared in constant time; an unknown user is compared against nothing and fails the same way.
        byte[] given = password.getBytes(StandardCharsets.UTF_8);
        boolean matches = MessageDigest.isEqual(given, expected == null ? new byte[0]
                : expected.getBytes(StandardCharsets.UTF_8));
        if (expected == null || !matches) {
            throw new SaslAuthenticationFailure(INVALID);
        }
        user = username;
        return new byte[0];
    }

    @Override
    public boolean isComplete() {
        return user != null;
    }

    @Override
    public String authenticatedUser() {
        if (user == null) {
            throw new IllegalStateException("PLAIN exchange not complete");
        }
        return user;
    }
}
