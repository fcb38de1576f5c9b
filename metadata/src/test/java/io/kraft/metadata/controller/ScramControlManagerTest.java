package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kraft.metadata.image.ScramCredential;
import io.kraft.metadata.image.ScramFunctions;
import io.kraft.metadata.image.ScramMechanism;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AlterUserScramCredentials' checks and records, each user judged as a whole, against the managers' view. */
class ScramControlManagerTest {
    private static final byte SHA_256 = 1;
    private static final byte SHA_512 = 2;
    private static final byte[] SALT = {9, 8, 7};
    private static final byte[] SALTED = {1, 2, 3, 4};

    private final ControllerTestEnv env = new ControllerTestEnv();

    private Map<String, ApiError> alter(ScramAlteration... alterations) {
        return env.commit(env.managers.alterUserScramCredentials(List.of(alterations))).response();
    }

    @Test
    void keepsOnlyWhatTheServerSideNeedsDerivedFromTheSaltedPassword() {
        assertEquals(Map.of("alice", ApiError.NONE),
                alter(ScramAlteration.upsertion("alice", SHA_256, 4096, SALT, SALTED)));
        ScramCredential stored = env.image.scram().credential("alice", ScramMechanism.SCRAM_SHA_256);
        ScramFunctions f = ScramFunctions.of(ScramMechanism.SCRAM_SHA_256);
        assertArrayEquals(SALT, stored.salt());
        assertArrayEquals(f.hash(f.clientKey(SALTED)), stored.storedKey());
        assertArrayEquals(f.serverKey(SALTED), stored.serverKey());
        assertEquals(4096, stored.iterations());
    }

    @Test
    void judgesEachUserAsAWholeWithKafkasErrors() {
        alter(ScramAlteration.upsertion("alice", SHA_256, 4096, SALT, SALTED));
        Map<String, ApiError> outcomes = alter(
                ScramAlteration.upsertion("few", SHA_256, 4095, SALT, SALTED),
                ScramAlteration.upsertion("many", SHA_512, 16385, SALT, SALTED),
                ScramAlteration.deletion("ghost", SHA_256),
                ScramAlteration.upsertion("twice", SHA_256, 4096, SALT, SALTED),
                ScramAlteration.deletion("twice", SHA_256),
                ScramAlteration.upsertion("odd", (byte) 7, 4096, SALT, SALTED),
                ScramAlteration.upsertion("", SHA_256, 4096, SALT, SALTED),
                ScramAlteration.upsertion("partly", SHA_256, 4096, SALT, SALTED),
                ScramAlteration.deletion("partly", SHA_512),
                ScramAlteration.deletion("alice", SHA_256),
                ScramAlteration.upsertion("bob", SHA_512, 16384, SALT, SALTED));
        assertEquals(Errors.UNACCEPTABLE_CREDENTIAL, outcomes.get("few").error());
        assertEquals(Errors.UNACCEPTABLE_CREDENTIAL, outcomes.get("many").error());
        assertEquals(Errors.RESOURCE_NOT_FOUND, outcomes.get("ghost").error());
        assertEquals(Errors.DUPLICATE_RESOURCE, outcomes.get("twice").error());
        assertEquals(Errors.UNSUPPORTED_SASL_MECHANISM, outcomes.get("odd").error());
        assertEquals(Errors.UNACCEPTABLE_CREDENTIAL, outcomes.get("").error());
        assertEquals(Errors.RESOURCE_NOT_FOUND, outcomes.get("partly").error(), "one bad alteration fails the user");
        assertEquals(ApiError.NONE, outcomes.get("alice"));
        assertEquals(ApiError.NONE, outcomes.get("bob"));
        assertNull(env.image.scram().credential("partly", ScramMechanism.SCRAM_SHA_256));
        assertNull(env.image.scram().credential("alice", ScramMechanism.SCRAM_SHA_256));
        assertEquals(16384, env.image.scram().credential("bob", ScramMechanism.SCRAM_SHA_512).iterations());
        assertEquals(List.of("few", "many", "ghost", "twice", "odd", "", "partly", "alice", "bob"),
                List.copyOf(outcomes.keySet()), "answered in the order first named");
    }
}
