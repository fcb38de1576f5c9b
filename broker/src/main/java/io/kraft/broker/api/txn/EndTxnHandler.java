package io.kraft.broker.api.txn;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.EndTxnRequest;
import io.kraft.broker.protocol.message.EndTxnResponse;
import io.kraft.metadata.controller.Controller;
import io.kraft.storage.errors.Errors;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Answers EndTxn (v0-5): the transaction coordinator records PrepareCommit or PrepareAbort, and the answer goes once
 * that record is committed; the partitions' leaders then write the markers. The v5 fields for transaction protocol
 * version 2 (the producer id and epoch after the bump) are -1: this coordinator runs version 1.
 */
public final class EndTxnHandler implements AsyncRequestHandler<EndTxnRequest, EndTxnResponse> {
    /** EndTxn knows PRODUCER_FENCED from this version on (KIP-588). */
    static final int PRODUCER_FENCED_SINCE = 2;

    private final Controller controller;

    public EndTxnHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.END_TXN;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<EndTxnRequest> request) {
        EndTxnRequest body = request.body();
        return controller.endTransaction(body.transactionalId(), body.producerId(), body.producerEpoch(),
                        body.committed())
                .handle((ignored, failure) -> HandlerResponse.of(response(failure == null ? Errors.NONE
                        : TransactionErrors.forClient(TransactionErrors.of(failure), request.version(),
                        PRODUCER_FENCED_SINCE))));
    }

    @Override
    public Optional<EndTxnResponse> errorResponse(ApiRequest<EndTxnRequest> request, Errors error) {
        return Optional.of(response(error));
    }

    private static EndTxnResponse response(Errors error) {
        return new EndTxnResponse().setErrorCode(error.code()).setProducerId(-1L).setProducerEpoch((short) -1);
    }
}
