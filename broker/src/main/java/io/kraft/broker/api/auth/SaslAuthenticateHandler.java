package io.kraft.broker.api.auth;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.SaslAuthenticator;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.SaslAuthenticateRequest;
import io.kraft.broker.protocol.message.SaslAuthenticateResponse;
import io.kraft.storage.errors.Errors;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers SaslAuthenticate (v0-2) with the next bytes of the connection's SASL exchange and, once it completes, the
 * session's lifetime (v1+, KIP-368). A failure is answered with SASL_AUTHENTICATION_FAILED and its message (which
 * kafka-clients raise as {@code SaslAuthenticationException}) and the connection closes after the answer, as in Kafka.
 */
public final class SaslAuthenticateHandler
        implements AsyncRequestHandler<SaslAuthenticateRequest, SaslAuthenticateResponse> {
    @Override
    public ApiKey apiKey() {
        return ApiKey.SASL_AUTHENTICATE;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<SaslAuthenticateRequest> request) {
        Optional<SaslAuthenticator> sasl = context.session().sasl();
        if (sasl.isEmpty()) {
            return CompletableFuture.completedFuture(HandlerResponse.thenClose(new SaslAuthenticateResponse()
                    .setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
                    .setErrorMessage("SaslAuthenticate on listener " + context.listenerName() + ", which has no SASL"),
                    "SaslAuthenticate on a listener without SASL"));
        }
        ByteBuffer bytes = request.body().authBytes();
        byte[] token = new byte[bytes.remaining()];
        bytes.duplicate().get(token);
        SaslAuthenticator.AuthenticateOutcome outcome = sasl.get().authenticate(request.version(), token);
        if (outcome.failed()) {
            Errors error = outcome.illegalState() ? Errors.ILLEGAL_SASL_STATE : Errors.SASL_AUTHENTICATION_FAILED;
            return CompletableFuture.completedFuture(HandlerResponse.thenClose(new SaslAuthenticateResponse()
                    .setErrorCode(error.code()).setErrorMessage(outcome.failure()), outcome.failure()));
        }
        return CompletableFuture.completedFuture(HandlerResponse.of(new SaslAuthenticateResponse()
                .setErrorCode(Errors.NONE.code()).setAuthBytes(ByteBuffer.wrap(outcome.serverBytes()))
                .setSessionLifetimeMs(outcome.sessionLifetimeMs())));
    }

    @Override
    public Optional<SaslAuthenticateResponse> errorResponse(ApiRequest<SaslAuthenticateRequest> request,
                                                            Errors error) {
        return Optional.of(new SaslAuthenticateResponse().setErrorCode(error.code()));
    }
}
