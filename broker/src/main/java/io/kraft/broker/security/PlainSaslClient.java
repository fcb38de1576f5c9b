package io.kraft.broker.security;

import java.nio.charset.StandardCharsets;

/** The client side of SASL/PLAIN: one message with the user name and password (to be sent only over TLS or a trusted network). */
public final class PlainSaslClient implements SaslClientMechanism {
    private final String user;
    private final String password;
    private boolean sent;

    public PlainSaslClient(String user, String password) {
        this.user = user;
        this.password = password;
    }

    @Override
    public byte[] initialResponse() {
        sent = true;
        return ("\u0000" + user + "\u0000" + password).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] evaluate(byte[] challenge) throws SaslAuthenticationFailure {
        throw new SaslAuthenticationFailure("PLAIN expects no server challenge");
    }

    @Override
    public boolean isComplete() {
        return sent;
    }
}
