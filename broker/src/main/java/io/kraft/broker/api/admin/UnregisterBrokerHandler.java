package io.kraft.broker.api.admin;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.UnregisterBrokerRequest;
import io.kraft.broker.protocol.message.UnregisterBrokerResponse;
import io.kraft.metadata.controller.Controller;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Answers UnregisterBroker (v0, KIP-631; {@code Admin.unregisterBroker}, {@code kafka-cluster.sh unregister}) through
 * the active {@link Controller}, which removes a decommissioned broker's registration (BROKER_ID_NOT_REGISTERED for an
 * unknown id). The request names no timeout: the controller gets the clients' default of 30 s.
 */
public final class UnregisterBrokerHandler
        implements AsyncRequestHandler<UnregisterBrokerRequest, UnregisterBrokerResponse> {
    private static final long TIMEOUT_MS = 30_000;

    private final Controller controller;

    public UnregisterBrokerHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.UNREGISTER_BROKER;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<UnregisterBrokerRequest> request) {
        return ControllerErrors.outcome(controller.unregisterBroker(request.body().brokerId()), TIMEOUT_MS)
                .thenApply(outcome -> HandlerResponse.of(new UnregisterBrokerResponse()
                        .setErrorCode(outcome.errorCode()).setErrorMessage(outcome.errorMessage())));
    }
}
