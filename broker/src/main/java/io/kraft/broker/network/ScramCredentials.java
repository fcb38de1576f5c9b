package io.kraft.broker.network;

import io.kraft.metadata.image.ScramCredential;
import io.kraft.metadata.image.ScramMechanism;

/** Where SCRAM logins find a user's credential: the broker's current metadata image. */
@FunctionalInterface
public interface ScramCredentials {
    /** No credentials at all (a broker without metadata). */
    ScramCredentials NONE = (user, mechanism) -> null;

    /** The user's credential for the mechanism, or null. */
    ScramCredential credential(String user, ScramMechanism mechanism);
}
