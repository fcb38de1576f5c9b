package io.kraft.broker.security;

/**
 * The server side of one SASL mechanism for one login: takes each token the client sends and answers the next
 * challenge, until {@link #isComplete()}. One instance serves one exchange; not thread-safe (a connection's requests
 * run one at a time).
 */
public interface SaslServerMechanism {
    /** The SASL mechanism name, e.g. {@code PLAIN}. */
    String mechanismName();

    /**
     * Evaluates the client's next token.
     *
     * @return the challenge or final server message to send back (empty when there is none)
     * @throws SaslAuthenticationFailure if the client did not prove who it claims to be, or broke the exchange
     */
    byte[] evaluate(byte[] response) throws SaslAuthenticationFailure;

    /** Whether the client has authenticated. */
    boolean isComplete();

    /** The user the client authenticated as; only once {@link #isComplete()}. */
    String authenticatedUser();
}
