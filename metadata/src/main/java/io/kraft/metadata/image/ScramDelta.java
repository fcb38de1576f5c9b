package io.kraft.metadata.image;

import io.kraft.proto.metadata.RemoveUserScramCredentialRecord;
import io.kraft.proto.metadata.UserScramCredentialRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/** SCRAM credential changes on top of a {@link ScramImage}; a null value is a deleted credential. */
public final class ScramDelta {
    private final ScramImage image;
    private final Map<ScramImage.Key, ScramCredential> changes = new HashMap<>();

    public ScramDelta(ScramImage image) {
        this.image = image;
    }

    /** Credentials changed in this delta: the new one, or null when deleted. */
    public Map<ScramImage.Key, ScramCredential> changes() {
        return Collections.unmodifiableMap(changes);
    }

    /** The credential including this delta's changes, or null. */
    public ScramCredential credential(String user, ScramMechanism mechanism) {
        ScramImage.Key key = new ScramImage.Key(user, mechanism);
        return changes.containsKey(key) ? changes.get(key) : image.credential(user, mechanism);
    }

    public void replay(UserScramCredentialRecord record) {
        ScramCredential credential = ScramCredential.fromRecord(record);
        changes.put(new ScramImage.Key(credential.user(), credential.mechanism()), credential);
    }

    public void replay(RemoveUserScramCredentialRecord record) {
        changes.put(new ScramImage.Key(record.getName(), ScramMechanism.fromProto(record.getMechanism())), null);
    }

    public ScramImage apply() {
        if (changes.isEmpty()) {
            return image;
        }
        Map<ScramImage.Key, ScramCredential> credentials = new HashMap<>(image.credentials());
        changes.forEach((key, credential) -> {
            if (credential == null) {
                credentials.remove(key);
            } else {
                credentials.put(key, credential);
            }
        });
        return new ScramImage(credentials);
    }
}
