package io.kraft.broker.security;

import io.kraft.metadata.image.ScramFunctions;
import io.kraft.metadata.image.ScramMechanism;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The client side of SASL/SCRAM (RFC 5802) without channel binding, as a follower logs in to its leader: sends
 * client-first, answers server-first with the proof, and checks the server's signature in server-final.
 */
public final class ScramSaslClient implements SaslClientMechanism {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String GS2_HEADER = "n,,";

    private final ScramFunctions functions;
    private final String user;
    private final String password;
    private final String clientNonce;
    private String clientFirstBare;
    private byte[] expectedServerSignature;
    private boolean complete;

    public ScramSaslClient(ScramMechanism mechanism, String user, String password) {
        this(ScramFunctions.of(mechanism), user, password, randomNonce());
    }

    /** @param clientNonce printable, without commas; random in production */
    public ScramSaslClient(ScramFunctions functions, String user, String password, String clientNonce) {
        this.functions = functions;
        this.user = user;
        this.password = password;
        this.clientNonce = clientNonce;
    }

    @Override
    public byte[] initialResponse() {
        clientFirstBare = "n=" + user.replace("=", "=3D").replace(",", "=2C") + ",r=" + clientNonce;
        return (GS2_HEADER + clientFirstBare).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] evaluate(byte[] challenge) throws SaslAuthenticationFailure {
        String message = new String(challenge, StandardCharsets.UTF_8);
        if (expectedServerSignature == null) {
            return serverFirst(message);
        }
        if (!message.startsWith("v=")) {
            throw new SaslAuthenticationFailure("SCRAM server-final message is not v=<signature>");
        }
        if (!MessageDigest.isEqual(Base64.getDecoder().decode(message.substring(2)), expectedServerSignature)) {
            throw new SaslAuthenticationFailure("The server's SCRAM signature is wrong: it does not know the"
                    + " credential");
        }
        complete = true;
        return new byte[0];
    }

    private byte[] serverFirst(String serverFirst) throws SaslAuthenticationFailure {
        String nonce = null;
        byte[] salt = null;
        int iterations = 0;
        try {
            for (String attribute : serverFirst.split(",")) {
                if (attribute.startsWith("r=")) {
                    nonce = attribute.substring(2);
                } else if (attribute.startsWith("s=")) {
                    salt = Base64.getDecoder().decode(attribute.substring(2));
                } else if (attribute.startsWith("i=")) {
                    iterations = Integer.parseInt(attribute.substring(2));
                }
            }
        } catch (IllegalArgumentException e) {
            throw new SaslAuthenticationFailure("Malformed SCRAM server-first message");
        }
        if (nonce == null || !nonce.startsWith(clientNonce) || salt == null
                || iterations < ScramMechanism.MIN_ITERATIONS) {
            throw new SaslAuthenticationFailure("Bad SCRAM server-first message (nonce, salt or iterations)");
        }
        byte[] salted = functions.hi(password.getBytes(StandardCharsets.UTF_8), salt, iterations);
        String withoutProof = "c=" + Base64.getEncoder().encodeToString(GS2_HEADER.getBytes(StandardCharsets.UTF_8))
                + ",r=" + nonce;
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] clientKey = functions.clientKey(salted);
        byte[] proof = ScramFunctions.xor(clientKey, functions.hmac(functions.storedKey(clientKey), authMessage));
        expectedServerSignature = functions.hmac(functions.serverKey(salted), authMessage);
        return (withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof)).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean isComplete() {
        return complete;
    }

    private static String randomNonce() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getEncoder().withoutPadding().encodeToString(bytes);
    }
}
