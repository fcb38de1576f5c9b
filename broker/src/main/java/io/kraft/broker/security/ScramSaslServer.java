package io.kraft.broker.security;

import io.kraft.metadata.image.ScramCredential;
import io.kraft.metadata.image.ScramFunctions;
import io.kraft.metadata.image.ScramMechanism;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The server side of SASL/SCRAM (RFC 5802; SCRAM-SHA-256 is RFC 7677) as a plain state machine:
 * {@code RECEIVE_CLIENT_FIRST} → (server-first sent) {@code RECEIVE_CLIENT_FINAL} → (proof checked, server-final
 * sent) {@code COMPLETE}; any failure ends in {@code FAILED}. Channel binding is not offered (gs2 flag {@code n} or
 * {@code y}); Kafka's {@code tokenauth} extension (delegation tokens) is refused. The credential comes from the
 * metadata image: the salt, iterations, StoredKey and ServerKey, never a password.
 */
public final class ScramSaslServer implements SaslServerMechanism {
    /** Where an exchange is. */
    public enum State { RECEIVE_CLIENT_FIRST, RECEIVE_CLIENT_FINAL, COMPLETE, FAILED }

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String mechanismName;
    private final ScramFunctions functions;
    private final Function<String, ScramCredential> credentials;
    private final Supplier<String> serverNonces;
    private State state = State.RECEIVE_CLIENT_FIRST;
    private String user;
    private String gs2Header;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;
    private ScramCredential credential;

    /** A server for a served mechanism, reading credentials by user name. */
    public ScramSaslServer(ScramMechanism mechanism, Function<String, ScramCredential> credentials) {
        this(mechanism.mechanismName(), ScramFunctions.of(mechanism), credentials, ScramSaslServer::randomNonce);
    }

    /**
     * @param serverNonces the server's part of each exchange's nonce (printable, no comma); random in production
     */
    public ScramSaslServer(String mechanismName, ScramFunctions functions,
                           Function<String, ScramCredential> credentials, Supplier<String> serverNonces) {
        this.mechanismName = Objects.requireNonNull(mechanismName, "mechanismName");
        this.functions = Objects.requireNonNull(functions, "functions");
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.serverNonces = Objects.requireNonNull(serverNonces, "serverNonces");
    }

    @Override
    public String mechanismName() {
        return mechanismName;
    }

    public State state() {
        return state;
    }

    @Override
    public byte[] evaluate(byte[] response) throws SaslAuthenticationFailure {
        try {
            String message = new String(response, StandardCharsets.UTF_8);
            return switch (state) {
                case RECEIVE_CLIENT_FIRST -> utf8(clientFirst(message));
                case RECEIVE_CLIENT_FINAL -> utf8(clientFinal(message));
                case COMPLETE, FAILED -> throw new SaslAuthenticationFailure("Authentication failed: the "
                        + mechanismName + " exchange is already " + (state == State.COMPLETE ? "complete" : "failed"));
            };
        } catch (SaslAuthenticationFailure e) {
            state = State.FAILED;
            throw e;
        }
    }

    private String clientFirst(String message) throws SaslAuthenticationFailure {
        // gs2-header: gs2-cbind-flag "," [ authzid ] ","
        if (!(message.startsWith("n,") || message.startsWith("y,"))) {
            throw malformed(message.startsWith("p=") ? "channel binding is not supported" : "bad gs2 header");
        }
        int headerEnd = message.indexOf(',', 2);
        if (headerEnd < 0) {
            throw malformed("bad gs2 header");
        }
        String authzid = message.substring(2, headerEnd);
        gs2Header = message.substring(0, headerEnd + 1);
        clientFirstBare = message.substring(headerEnd + 1);
        String[] attributes = clientFirstBare.split(",", -1);
        if (attributes.length < 2 || !attributes[0].startsWith("n=") || !attributes[1].startsWith("r=")) {
            throw malformed("client-first-message must start with n=<user>,r=<nonce>");
        }
        user = decodeName(attributes[0].substring(2));
        String clientNonce = attributes[1].substring(2);
        if (user.isEmpty() || clientNonce.isEmpty()) {
            throw malformed("empty user name or nonce");
        }
        for (int i = 2; i < attributes.length; i++) {
            if (attributes[i].equals("tokenauth=true")) {
                throw new SaslAuthenticationFailure("Authentication failed: delegation tokens are not supported");
            }
        }
        if (!authzid.isEmpty() && !decodeName(authzid.startsWith("a=") ? authzid.substring(2) : authzid).equals(user)) {
            throw new SaslAuthenticationFailure("Authentication failed: Client requested an authorization id that is"
                    + " different from username");
        }
        credential = credentials.apply(user);
        if (credential == null) {
            throw invalidCredentials();
        }
        nonce = clientNonce + serverNonces.get();
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(credential.salt())
                + ",i=" + credential.iterations();
        state = State.RECEIVE_CLIENT_FINAL;
        return serverFirst;
    }

    private String clientFinal(String message) throws SaslAuthenticationFailure {
        int proofAt = message.lastIndexOf(",p=");
        if (!message.startsWith("c=") || proofAt < 0) {
            throw malformed("client-final-message must be c=...,r=...,p=...");
        }
        String withoutProof = message.substring(0, proofAt);
        String[] attributes = withoutProof.split(",", -1);
        if (attributes.length < 2 || !attributes[1].startsWith("r=")) {
            throw malformed("client-final-message must be c=...,r=...,p=...");
        }
        byte[] channelBinding = base64(attributes[0].substring(2));
        if (!MessageDigest.isEqual(channelBinding, gs2Header.getBytes(StandardCharsets.UTF_8))) {
            throw malformed("channel binding does not match the gs2 header");
        }
        if (!attributes[1].substring(2).equals(nonce)) {
            throw malformed("nonce does not match");
        }
        byte[] proof = base64(message.substring(proofAt + 3));
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof)
                .getBytes(StandardCharsets.UTF_8);
        byte[] storedKey = credential.storedKey();
        byte[] clientSignature = functions.hmac(storedKey, authMessage);
        if (proof.length != clientSignature.length) {
            throw invalidCredentials();
        }
        byte[] clientKey = ScramFunctions.xor(proof, clientSignature);
        if (!MessageDigest.isEqual(functions.hash(clientKey), storedKey)) {
            throw invalidCredentials();
        }
        byte[] serverSignature = functions.hmac(credential.serverKey(), authMessage);
        state = State.COMPLETE;
        return "v=" + Base64.getEncoder().encodeToString(serverSignature);
    }

    @Override
    public boolean isComplete() {
        return state == State.COMPLETE;
    }

    @Override
    public String authenticatedUser() {
        if (state != State.COMPLETE) {
            throw new IllegalStateException(mechanismName + " exchange not complete");
        }
        return user;
    }

    /** The user the client named so far (for a log line about a failure), or null. */
    public String claimedUser() {
        return user;
    }

    private SaslAuthenticationFailure invalidCredentials() {
        return new SaslAuthenticationFailure("Authentication failed during authentication due to invalid credentials"
                + " with SASL mechanism " + mechanismName);
    }

    private SaslAuthenticationFailure malformed(String why) {
        return new SaslAuthenticationFailure("Authentication failed: invalid " + mechanismName + " message: " + why);
    }

    private byte[] base64(String text) throws SaslAuthenticationFailure {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw malformed("bad base64");
        }
    }

    /** saslname: "=2C" stands for ',' and "=3D" for '='; any other '=' is an error (RFC 5802 section 5.1). */
    private String decodeName(String saslName) throws SaslAuthenticationFailure {
        StringBuilder out = new StringBuilder(saslName.length());
        for (int i = 0; i < saslName.length(); i++) {
            char c = saslName.charAt(i);
            if (c != '=') {
                out.append(c);
            } else if (saslName.startsWith("=2C", i)) {
                out.append(',');
                i += 2;
            } else if (saslName.startsWith("=3D", i)) {
                out.append('=');
                i += 2;
            } else {
                throw malformed("bad escape in user name");
            }
        }
        return out.toString();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** 24 random bytes as base64: printable and free of commas, as a nonce must be. */
    static String randomNonce() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getEncoder().withoutPadding().encodeToString(bytes);
    }
}
