package io.kraft.broker.security;

/**
 * A SASL exchange that failed: the message goes back to the client (as SASL_AUTHENTICATION_FAILED's message, which
 * kafka-clients raise as a {@code SaslAuthenticationException}) and into the broker's one log line about the attempt,
 * so it never holds a password.
 */
public final class SaslAuthenticationFailure extends Exception {
    public SaslAuthenticationFailure(String message) {
        super(message, null, false, false);
    }
}
