package io.kraft.metadata.image;

import com.google.protobuf.ByteString;
import io.kraft.metadata.MetadataRecords;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.UserScramCredentialRecord;
import java.util.Arrays;
import java.util.Objects;

/**
 * What the server side of SCRAM keeps of one user's password for one mechanism (RFC 5802 section 5): the salt, the
 * iteration count, StoredKey and ServerKey. Neither the password nor the salted password can be recovered from it.
 */
public record ScramCredential(String user, ScramMechanism mechanism, byte[] salt, byte[] storedKey, byte[] serverKey,
                              int iterations) {
    public ScramCredential {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(mechanism, "mechanism");
        salt = salt.clone();
        storedKey = storedKey.clone();
        serverKey = serverKey.clone();
    }

    public static ScramCredential fromRecord(UserScramCredentialRecord record) {
        return new ScramCredential(record.getName(), ScramMechanism.fromProto(record.getMechanism()),
                record.getSalt().toByteArray(), record.getStoredKey().toByteArray(),
                record.getServerKey().toByteArray(), record.getIterations());
    }

    @Override
    public byte[] salt() {
        return salt.clone();
    }

    @Override
    public byte[] storedKey() {
        return storedKey.clone();
    }

    @Override
    public byte[] serverKey() {
        return serverKey.clone();
    }

    public UserScramCredentialRecord toProto() {
        return UserScramCredentialRecord.newBuilder().setName(user).setMechanism(mechanism.toProto())
                .setSalt(ByteString.copyFrom(salt)).setStoredKey(ByteString.copyFrom(storedKey))
                .setServerKey(ByteString.copyFrom(serverKey)).setIterations(iterations).build();
    }

    public MetadataRecord toRecord() {
        return MetadataRecords.of(toProto());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScramCredential that && user.equals(that.user) && mechanism == that.mechanism
                && iterations == that.iterations && Arrays.equals(salt, that.salt)
                && Arrays.equals(storedKey, that.storedKey) && Arrays.equals(serverKey, that.serverKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(user, mechanism, iterations, Arrays.hashCode(salt));
    }

    /** Never the keys: a credential in a log line shows who and how, not the secret-derived bytes. */
    @Override
    public String toString() {
        return "ScramCredential[user=" + user + ", mechanism=" + mechanism + ", iterations=" + iterations + "]";
    }
}
