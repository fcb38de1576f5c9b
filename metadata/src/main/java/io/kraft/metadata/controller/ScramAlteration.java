package io.kraft.metadata.controller;

/**
 * One entry of AlterUserScramCredentials (KIP-554): an upsertion carries the iteration count, salt and salted password
 * the client derived (never the password itself); a deletion only the user and mechanism.
 *
 * @param mechanism Kafka's mechanism byte (1 SCRAM-SHA-256, 2 SCRAM-SHA-512), checked by the controller
 */
public record ScramAlteration(String user, byte mechanism, boolean deletion, int iterations, byte[] salt,
                              byte[] saltedPassword) {
    public static ScramAlteration deletion(String user, byte mechanism) {
        return new ScramAlteration(user, mechanism, true, 0, new byte[0], new byte[0]);
    }

    public static ScramAlteration upsertion(String user, byte mechanism, int iterations, byte[] salt,
                                            byte[] saltedPassword) {
        return new ScramAlteration(user, mechanism, false, iterations, salt, saltedPassword);
    }

    @Override
    public String toString() {
        return (deletion ? "delete " : "upsert ") + user + " mechanism " + mechanism;
    }
}
