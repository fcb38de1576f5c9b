package io.kraft.metadata.image;

import io.kraft.proto.metadata.ScramMechanismType;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The SASL/SCRAM mechanisms served (RFC 7677 and its SHA-512 sibling): their SASL names, the hash and HMAC each uses,
 * and Kafka's mechanism byte (AlterUserScramCredentials, DescribeUserScramCredentials).
 */
public enum ScramMechanism {
    SCRAM_SHA_256("SCRAM-SHA-256", "SHA-256", "HmacSHA256", (byte) 1, ScramMechanismType.SCRAM_MECHANISM_TYPE_SCRAM_SHA_256),
    SCRAM_SHA_512("SCRAM-SHA-512", "SHA-512", "HmacSHA512", (byte) 2, ScramMechanismType.SCRAM_MECHANISM_TYPE_SCRAM_SHA_512);

    /** Kafka's bounds on a credential's iteration count (KIP-554): fewer is weak, more makes logins costly. */
    public static final int MIN_ITERATIONS = 4096;
    public static final int MAX_ITERATIONS = 16384;

    private final String mechanismName;
    private final String hashAlgorithm;
    private final String macAlgorithm;
    private final byte type;
    private final ScramMechanismType proto;

    ScramMechanism(String mechanismName, String hashAlgorithm, String macAlgorithm, byte type,
                   ScramMechanismType proto) {
        this.mechanismName = mechanismName;
        this.hashAlgorithm = hashAlgorithm;
        this.macAlgorithm = macAlgorithm;
        this.type = type;
        this.proto = proto;
    }

    /** The SASL mechanism name, e.g. {@code SCRAM-SHA-256}. */
    public String mechanismName() {
        return mechanismName;
    }

    /** The JCA name of the hash function H. */
    public String hashAlgorithm() {
        return hashAlgorithm;
    }

    /** The JCA name of HMAC over H. */
    public String macAlgorithm() {
        return macAlgorithm;
    }

    /** Kafka's mechanism byte on the wire. */
    public byte type() {
        return type;
    }

    public ScramMechanismType toProto() {
        return proto;
    }

    public static Optional<ScramMechanism> fromType(byte type) {
        return Arrays.stream(values()).filter(m -> m.type == type).findFirst();
    }

    /** The mechanism with this SASL name (any case), if it is a SCRAM one served here. */
    public static Optional<ScramMechanism> forMechanismName(String name) {
        String upper = name.trim().toUpperCase(Locale.ROOT);
        return Arrays.stream(values()).filter(m -> m.mechanismName.equals(upper)).findFirst();
    }

    /**
     * The mechanism a record names.
     *
     * @throws IllegalArgumentException for UNKNOWN or a number this code does not know
     */
    public static ScramMechanism fromProto(ScramMechanismType type) {
        return Arrays.stream(values()).filter(m -> m.proto == type).findFirst().orElseThrow(() ->
                new IllegalArgumentException("Unknown SCRAM mechanism " + type + " in a metadata record"));
    }

    @Override
    public String toString() {
        return mechanismName;
    }
}
