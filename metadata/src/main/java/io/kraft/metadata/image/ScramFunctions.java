package io.kraft.metadata.image;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The functions of RFC 5802 section 2.2 for one hash: H, HMAC, Hi (PBKDF2 with HMAC), and the credential derived from
 * a salted password. Used by the controller (from the salted password a client sends), by {@code format --add-scram}
 * (from a password), and by the server side of a SCRAM login.
 */
public final class ScramFunctions {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] CLIENT_KEY = "Client Key".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SERVER_KEY = "Server Key".getBytes(StandardCharsets.US_ASCII);

    private final String hashAlgorithm;
    private final String macAlgorithm;

    public ScramFunctions(String hashAlgorithm, String macAlgorithm) {
        this.hashAlgorithm = hashAlgorithm;
        this.macAlgorithm = macAlgorithm;
    }

    public static ScramFunctions of(ScramMechanism mechanism) {
        return new ScramFunctions(mechanism.hashAlgorithm(), mechanism.macAlgorithm());
    }

    public byte[] hash(byte[] input) {
        try {
            return MessageDigest.getInstance(hashAlgorithm).digest(input);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK lacks " + hashAlgorithm, e);
        }
    }

    public byte[] hmac(byte[] key, byte[] input) {
        try {
            Mac mac = Mac.getInstance(macAlgorithm);
            mac.init(new SecretKeySpec(key, macAlgorithm));
            return mac.doFinal(input);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK lacks " + macAlgorithm, e);
        }
    }

    /** Hi(str, salt, i): the salted password. */
    public byte[] hi(byte[] password, byte[] salt, int iterations) {
        try {
            Mac mac = Mac.getInstance(macAlgorithm);
            mac.init(new SecretKeySpec(password, macAlgorithm));
            mac.update(salt);
            byte[] u = mac.doFinal(new byte[] {0, 0, 0, 1});
            byte[] result = u.clone();
            for (int i = 1; i < iterations; i++) {
                u = mac.doFinal(u);
                for (int j = 0; j < result.length; j++) {
                    result[j] ^= u[j];
                }
            }
            return result;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK lacks " + macAlgorithm, e);
        }
    }

    public byte[] clientKey(byte[] saltedPassword) {
        return hmac(saltedPassword, CLIENT_KEY);
    }

    public byte[] storedKey(byte[] clientKey) {
        return hash(clientKey);
    }

    public byte[] serverKey(byte[] saltedPassword) {
        return hmac(saltedPassword, SERVER_KEY);
    }

    /** The credential a server keeps for a salted password. */
    public static ScramCredential credential(String user, ScramMechanism mechanism, byte[] salt,
                                             byte[] saltedPassword, int iterations) {
        ScramFunctions functions = of(mechanism);
        return new ScramCredential(user, mechanism, salt, functions.storedKey(functions.clientKey(saltedPassword)),
                functions.serverKey(saltedPassword), iterations);
    }

    /** The credential for a password with a fresh random salt (the password is used here and not kept). */
    public static ScramCredential credentialForPassword(String user, ScramMechanism mechanism, String password,
                                                        int iterations) {
        byte[] salt = new byte[32];
        RANDOM.nextBytes(salt);
        byte[] salted = of(mechanism).hi(password.getBytes(StandardCharsets.UTF_8), salt, iterations);
        return credential(user, mechanism, salt, salted, iterations);
    }

    /** XOR of two arrays of the same length. */
    public static byte[] xor(byte[] a, byte[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("Lengths differ: " + a.length + " and " + b.length);
        }
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }
}
