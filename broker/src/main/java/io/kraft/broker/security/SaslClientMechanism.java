package io.kraft.broker.security;

/**
 * The client side of one SASL mechanism for one login (a follower logging in to its leader): the first token, then
 * the answer to each server message until {@link #isComplete()}. One instance per exchange; not thread-safe.
 */
public interface SaslClientMechanism {
    /** The token that opens the exchange. */
    byte[] initialResponse();

    /**
     * Answers the server's message.
     *
     * @throws SaslAuthenticationFailure if the server's message is malformed or does not prove the server knows the
     *                                   credential
     */
    byte[] evaluate(byte[] challenge) throws SaslAuthenticationFailure;

    boolean isComplete();
}
