package io.kraft.broker.api.auth;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DescribeUserScramCredentialsRequest;
import io.kraft.broker.protocol.message.DescribeUserScramCredentialsResponse;
import io.kraft.broker.protocol.message.DescribeUserScramCredentialsResponse.CredentialInfo;
import io.kraft.broker.protocol.message.DescribeUserScramCredentialsResponse.DescribeUserScramCredentialsResult;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.ScramCredential;
import io.kraft.storage.errors.Errors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Answers DescribeUserScramCredentials (v0, KIP-554) from this broker's metadata image: each user's mechanisms and
 * iteration counts, never salts or keys. No users (null or empty) describes every user with a credential; a user
 * without one is RESOURCE_NOT_FOUND, a user named twice DUPLICATE_RESOURCE.
 */
public final class DescribeUserScramCredentialsHandler
        implements RequestHandler<DescribeUserScramCredentialsRequest, DescribeUserScramCredentialsResponse> {
    private final Supplier<MetadataImage> images;

    public DescribeUserScramCredentialsHandler(Supplier<MetadataImage> images) {
        this.images = Objects.requireNonNull(images, "images");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS;
    }

    @Override
    public DescribeUserScramCredentialsResponse handle(RequestContext context,
                                                       ApiRequest<DescribeUserScramCredentialsRequest> request) {
        DescribeUserScramCredentialsResponse response = new DescribeUserScramCredentialsResponse();
        // Kafka asks Describe on the cluster to list users' credentials.
        if (!context.authorizeCluster(AclOperation.DESCRIBE)) {
            return response.setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        }
        Map<String, List<ScramCredential>> byUser = images.get().scram().byUser();
        List<DescribeUserScramCredentialsRequest.UserName> users = request.body().users();
        if (users == null || users.isEmpty()) {
            byUser.forEach((user, credentials) -> response.results().add(result(user, credentials)));
            return response;
        }
        Map<String, Integer> counts = new HashMap<>();
        users.forEach(user -> counts.merge(user.name(), 1, Integer::sum));
        for (DescribeUserScramCredentialsRequest.UserName user : users) {
            if (counts.get(user.name()) > 1) {
                response.results().add(new DescribeUserScramCredentialsResult().setUser(user.name())
                        .setErrorCode(Errors.DUPLICATE_RESOURCE.code())
                        .setErrorMessage("Cannot describe SCRAM credentials for the same user twice in a single"
                                + " request"));
            } else if (!byUser.containsKey(user.name())) {
                response.results().add(new DescribeUserScramCredentialsResult().setUser(user.name())
                        .setErrorCode(Errors.RESOURCE_NOT_FOUND.code())
                        .setErrorMessage("Attempt to describe a user credential that does not exist"));
            } else {
                response.results().add(result(user.name(), byUser.get(user.name())));
            }
        }
        return response;
    }

    private static DescribeUserScramCredentialsResult result(String user, List<ScramCredential> credentials) {
        DescribeUserScramCredentialsResult result = new DescribeUserScramCredentialsResult().setUser(user)
                .setErrorCode(Errors.NONE.code());
        credentials.forEach(credential -> result.credentialInfos().add(new CredentialInfo()
                .setMechanism(credential.mechanism().type()).setIterations(credential.iterations())));
        return result;
    }

    @Override
    public Optional<DescribeUserScramCredentialsResponse> errorResponse(
            ApiRequest<DescribeUserScramCredentialsRequest> request, Errors error) {
        return Optional.of(new DescribeUserScramCredentialsResponse().setErrorCode(error.code()));
    }
}
