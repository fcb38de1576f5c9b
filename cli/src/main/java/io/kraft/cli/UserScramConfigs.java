package io.kraft.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.common.errors.ResourceNotFoundException;

/**
 * {@code kraft-cli configs --entity-type users}: a user's SCRAM credentials as kafka-configs.sh handles them
 * ({@code --add-config 'SCRAM-SHA-256=[iterations=8192,password=pw]'}, {@code --delete-config SCRAM-SHA-256},
 * {@code --describe}), through Kafka's Admin API (the client salts and hashes the password; it never leaves it).
 */
final class UserScramConfigs {
    private UserScramConfigs() {
    }

    /**
     * The alterations of {@code --add-config} and {@code --delete-config} for {@code user}.
     *
     * @throws IllegalArgumentException naming what is wrong (never a password)
     */
    static List<UserScramCredentialAlteration> alterations(String user, String addConfig, String deleteConfig) {
        List<UserScramCredentialAlteration> alterations = new ArrayList<>();
        if (addConfig != null) {
            for (ScramCredentialArgument credential : ScramCredentialArgument.parseAll(addConfig)) {
                if (credential.name().isPresent()) {
                    throw new IllegalArgumentException("name=... is not valid in --add-config: the user is"
                            + " --entity-name");
                }
                alterations.add(new UserScramCredentialUpsertion(user, new ScramCredentialInfo(
                        mechanism(credential.mechanism().mechanismName()), credential.iterations()),
                        credential.password()));
            }
        }
        if (deleteConfig != null) {
            for (String name : deleteConfig.split(",")) {
                if (!name.isBlank()) {
                    alterations.add(new UserScramCredentialDeletion(user, mechanism(name.trim())));
                }
            }
        }
        if (alterations.isEmpty()) {
            throw new IllegalArgumentException("--add-config and --delete-config name no SCRAM credentials");
        }
        return alterations;
    }

    static void alter(Admin admin, String user, List<UserScramCredentialAlteration> alterations, PrintWriter out)
            throws InterruptedException, ExecutionException {
        admin.alterUserScramCredentials(alterations).all().get();
        out.println("Completed updating config for user " + user + ".");
    }

    static void describe(Admin admin, String user, PrintWriter out) throws InterruptedException, ExecutionException {
        UserScramCredentialsDescription description;
        try {
            description = admin.describeUserScramCredentials(List.of(user)).description(user).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ResourceNotFoundException) {
                return; // nothing to show, as kafka-configs.sh shows nothing for a user without credentials
            }
            throw e;
        }
        out.println("SCRAM credential configs for user-principal '" + user + "' are " + description.credentialInfos()
                .stream().map(info -> info.mechanism().mechanismName() + "=iterations=" + info.iterations())
                .collect(Collectors.joining(", ")));
    }

    private static ScramMechanism mechanism(String name) {
        ScramMechanism mechanism = ScramMechanism.fromMechanismName(name.toUpperCase(Locale.ROOT));
        if (mechanism == ScramMechanism.UNKNOWN) {
            throw new IllegalArgumentException("unknown SCRAM mechanism '" + name
                    + "': expected SCRAM-SHA-256 or SCRAM-SHA-512");
        }
        return mechanism;
    }
}
