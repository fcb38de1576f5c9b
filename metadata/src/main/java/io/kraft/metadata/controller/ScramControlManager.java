package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.image.ScramFunctions;
import io.kraft.metadata.image.ScramMechanism;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.RemoveUserScramCredentialRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * AlterUserScramCredentials (KIP-554): checks each user's alterations as Kafka does and generates the credential
 * records. Each user succeeds or fails as a whole; the users of one request commit together. The current credentials
 * are read from the {@link SpeculativeMetadata}; the manager keeps no state.
 */
public final class ScramControlManager {
    private final SpeculativeMetadata metadata;

    ScramControlManager(SpeculativeMetadata metadata) {
        this.metadata = metadata;
    }

    /** Answers each user of the request (in the order first named) with its outcome. */
    public ControllerResult<Map<String, ApiError>> alter(List<ScramAlteration> alterations) {
        Map<String, List<ScramAlteration>> byUser = new LinkedHashMap<>();
        alterations.forEach(a -> byUser.computeIfAbsent(a.user(), user -> new ArrayList<>()).add(a));
        Map<String, ApiError> outcomes = new LinkedHashMap<>();
        List<MetadataRecord> records = new ArrayList<>();
        byUser.forEach((user, changes) -> {
            List<MetadataRecord> userRecords = new ArrayList<>();
            ApiError error = check(user, changes).orElseGet(() -> {
                changes.forEach(change -> userRecords.add(record(change)));
                return ApiError.NONE;
            });
            outcomes.put(user, error);
            if (error.isSuccess()) {
                records.addAll(userRecords);
            }
        });
        return ControllerResult.of(records, outcomes);
    }

    private Optional<ApiError> check(String user, List<ScramAlteration> changes) {
        if (user.isEmpty()) {
            return Optional.of(ApiError.of(Errors.UNACCEPTABLE_CREDENTIAL, "Username must not be empty"));
        }
        Set<Byte> mechanisms = new HashSet<>();
        for (ScramAlteration change : changes) {
            if (!mechanisms.add(change.mechanism())) {
                return Optional.of(ApiError.of(Errors.DUPLICATE_RESOURCE,
                        "A user credential cannot be altered twice in the same request"));
            }
        }
        for (ScramAlteration change : changes) {
            Optional<ScramMechanism> mechanism = ScramMechanism.fromType(change.mechanism());
            if (mechanism.isEmpty()) {
                return Optional.of(ApiError.of(Errors.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism "
                        + change.mechanism() + "; expected 1 (SCRAM-SHA-256) or 2 (SCRAM-SHA-512)"));
            }
            if (change.deletion()) {
                if (metadata.scramCredential(user, mechanism.get()) == null) {
                    return Optional.of(ApiError.of(Errors.RESOURCE_NOT_FOUND,
                            "Attempt to delete a user credential that does not exist"));
                }
                continue;
            }
            if (change.iterations() < ScramMechanism.MIN_ITERATIONS) {
                return Optional.of(ApiError.of(Errors.UNACCEPTABLE_CREDENTIAL, "Too few iterations: "
                        + change.iterations() + " (at least " + ScramMechanism.MIN_ITERATIONS + ")"));
            }
            if (change.iterations() > ScramMechanism.MAX_ITERATIONS) {
                return Optional.of(ApiError.of(Errors.UNACCEPTABLE_CREDENTIAL, "Too many iterations: "
                        + change.iterations() + " (at most " + ScramMechanism.MAX_ITERATIONS + ")"));
            }
            if (change.salt().length == 0 || change.saltedPassword().length == 0) {
                return Optional.of(ApiError.of(Errors.UNACCEPTABLE_CREDENTIAL,
                        "Salt and salted password must not be empty"));
            }
        }
        return Optional.empty();
    }

    private static MetadataRecord record(ScramAlteration change) {
        ScramMechanism mechanism = ScramMechanism.fromType(change.mechanism()).orElseThrow();
        if (change.deletion()) {
            return MetadataRecords.of(RemoveUserScramCredentialRecord.newBuilder().setName(change.user())
                    .setMechanism(mechanism.toProto()).build());
        }
        return ScramFunctions.credential(change.user(), mechanism, change.salt(), change.saltedPassword(),
                change.iterations()).toRecord();
    }
}
