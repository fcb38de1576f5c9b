package io.kraft.metadata.image;

import io.kraft.proto.metadata.MetadataRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Every user's SCRAM credentials (KIP-554), by user and mechanism: what SCRAM logins on every broker check. */
public record ScramImage(Map<Key, ScramCredential> credentials) {
    public static final ScramImage EMPTY = new ScramImage(Map.of());

    /** One credential's identity: a user may have one per mechanism. */
    public record Key(String user, ScramMechanism mechanism) {
        public Key {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(mechanism, "mechanism");
        }
    }

    public ScramImage {
        credentials = Map.copyOf(credentials);
    }

    /** The user's credential for the mechanism, or null. */
    public ScramCredential credential(String user, ScramMechanism mechanism) {
        return credentials.get(new Key(user, mechanism));
    }

    /** Each user with credentials, and those credentials, in user then mechanism order. */
    public Map<String, List<ScramCredential>> byUser() {
        Map<String, List<ScramCredential>> users = new TreeMap<>();
        credentials.values().stream().sorted(ORDER).forEach(credential -> users
                .computeIfAbsent(credential.user(), user -> new ArrayList<>()).add(credential));
        return users;
    }

    /** One record per credential, ordered by user and mechanism. */
    public List<MetadataRecord> toRecords() {
        return credentials.values().stream().sorted(ORDER).map(ScramCredential::toRecord).toList();
    }

    private static final Comparator<ScramCredential> ORDER = Comparator.comparing(ScramCredential::user)
            .thenComparing(ScramCredential::mechanism);
}
