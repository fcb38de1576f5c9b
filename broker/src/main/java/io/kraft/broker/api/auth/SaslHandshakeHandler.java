package io.kraft.broker.api.auth;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.SaslAuthenticator;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.SaslHandshakeRequest;
import io.kraft.broker.protocol.message.SaslHandshakeResponse;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers SaslHandshake (v1; v0's unframed tokens are refused) from the connection's {@link SaslAuthenticator}: the
 * mechanism is accepted, or UNSUPPORTED_SASL_MECHANISM lists the enabled ones and the connection closes. On a listener
 * without SASL the answer is ILLEGAL_SASL_STATE.
 */
public final class SaslHandshakeHandler implements AsyncRequestHandler<SaslHandshakeRequest, SaslHandshakeResponse> {
    @Override
    public ApiKey apiKey() {
        return ApiKey.SASL_HANDSHAKE;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<SaslHandshakeRequest> request) {
        Optional<SaslAuthenticator> sasl = context.session().sasl();
        if (sasl.isEmpty()) {
            return CompletableFuture.completedFuture(HandlerResponse.of(new SaslHandshakeResponse()
                    .setErrorCode(Errors.ILLEGAL_SASL_STATE.code())));
        }
        SaslAuthenticator.HandshakeOutcome outcome = sasl.get().handshake(request.version(),
                request.body().mechanism());
        SaslHandshakeResponse response = new SaslHandshakeResponse().setMechanisms(outcome.mechanisms());
        if (outcome.accepted()) {
            return CompletableFuture.completedFuture(HandlerResponse.of(response.setErrorCode(Errors.NONE.code())));
        }
        Errors error = outcome.illegalState() ? Errors.ILLEGAL_SASL_STATE : Errors.UNSUPPORTED_SASL_MECHANISM;
        return CompletableFuture.completedFuture(HandlerResponse.thenClose(response.setErrorCode(error.code()),
                outcome.message()));
    }

    @Override
    public Optional<SaslHandshakeResponse> errorResponse(ApiRequest<SaslHandshakeRequest> request, Errors error) {
        return Optional.of(new SaslHandshakeResponse().setErrorCode(error.code()).setMechanisms(List.of()));
    }
}
