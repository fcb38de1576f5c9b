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
 * that record is committed; the partitions' leaders then write the markers. v5 is sent by clients of transaction
 * protocol version 2 (KIP-890 part 2): the coordinator bumps the epoch of a version 2 transaction, and the answer
 * carries the producer id and epoch the producer goes on with.
 */
public final class EndTxnHandler implements AsyncRequestHandler<EndTxnRequest, EndTxnResponse> {
    /** EndTxn knows PRODUCER_FENCED from this version on (KIP-588). */
    static final int PRODUCER_FENCED_SINCE = 2;
    /** The EndTxn version of transaction protocol version 2 clients (KIP-890 part 2). */
    static final int EPOCH_BUMP_SINCE = 5;

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
                        body.committed(), request.version() >= EPOCH_BUMP_SINCE)
                .handle((producer, failure) -> {
                    if (failure != null) {
                        return HandlerResponse.of(response(TransactionErrors.forClient(TransactionErrors.of(failure),
                                request.version(), PRODUCER_FENCED_SINCE)));
                    }
                    return HandlerResponse.of(response(Errors.NONE).setProducerId(producer.producerId())
                            .setProducerEpoch(producer.producerEpoch()));
                });
    }

    @Override
    public Optional<EndTxnResponse> errorResponse(ApiRequest<EndTxnRequest> request, Errors error) {
        return Optional.of(response(error));
    }

    private static EndTxnResponse response(Errors error) {
        return new EndTxnResponse().setErrorCode(error.code()).setProducerId(-1L).setProducerEpoch((short) -1);
    }
}
