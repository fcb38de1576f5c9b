package io.kraft.server.grpc;

import com.google.protobuf.ByteString;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.ScramAlteration;
import io.kraft.proto.controller.AlterUserScramCredentialsRequest;
import io.kraft.proto.controller.AlterUserScramCredentialsResponse;
import io.kraft.proto.controller.ScramCredentialAlteration;
import io.kraft.proto.controller.UserScramCredentialsResult;
import io.kraft.storage.errors.Errors;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The control plane's form of AlterUserScramCredentials: alterations (salted passwords, never passwords) and outcomes. */
final class ScramMessages {
    private ScramMessages() {
    }

    static AlterUserScramCredentialsRequest request(List<ScramAlteration> alterations) {
        AlterUserScramCredentialsRequest.Builder message = AlterUserScramCredentialsRequest.newBuilder();
        alterations.forEach(a -> message.addAlterations(ScramCredentialAlteration.newBuilder().setUser(a.user())
                .setMechanism(a.mechanism()).setDeletion(a.deletion()).setIterations(a.iterations())
                .setSalt(ByteString.copyFrom(a.salt())).setSaltedPassword(ByteString.copyFrom(a.saltedPassword()))));
        return message.build();
    }

    /** The message of a NOT_CONTROLLER answer (the call goes to the active controller then), if it is one. */
    static Optional<String> notController(AlterUserScramCredentialsResponse response) {
        return response.getResultsList().stream().filter(r -> r.getErrorCode() == Errors.NOT_CONTROLLER.code())
                .map(UserScramCredentialsResult::getErrorMessage).findFirst();
    }

    /** Each user's outcome, in the answer's order. */
    static Map<String, ApiError> outcomes(AlterUserScramCredentialsResponse response) {
        Map<String, ApiError> outcomes = new LinkedHashMap<>();
        for (UserScramCredentialsResult result : response.getResultsList()) {
            outcomes.put(result.getUser(), ApiError.of(GrpcControllerClient.errorFor(result.getErrorCode()),
                    result.getErrorMessage().isEmpty() ? null : result.getErrorMessage()));
        }
        return outcomes;
    }
}
