package io.kraft.broker.api.txn;

import io.kraft.broker.group.GroupCoordinator;
import io.kraft.broker.group.OffsetsTopic;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.AddOffsetsToTxnRequest;
import io.kraft.broker.protocol.message.AddOffsetsToTxnResponse;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Answers AddOffsetsToTxn (v0-4): the group's {@code __consumer_offsets} partition joins the producer's transaction
 * at the transaction coordinator, so that the transaction's marker decides the offsets committed with it.
 */
public final class AddOffsetsToTxnHandler implements AsyncRequestHandler<AddOffsetsToTxnRequest, AddOffsetsToTxnResponse> {
    /** AddOffsetsToTxn knows PRODUCER_FENCED from this version on (KIP-588). */
    static final int PRODUCER_FENCED_SINCE = 2;

    private final Controller controller;
    private final Supplier<MetadataImage> images;
    private final Runnable createOffsetsTopic;

    /** @param createOffsetsTopic creates {@code __consumer_offsets} if it does not exist yet */
    public AddOffsetsToTxnHandler(Controller controller, Supplier<MetadataImage> images, Runnable createOffsetsTopic) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.images = Objects.requireNonNull(images, "images");
        this.createOffsetsTopic = Objects.requireNonNull(createOffsetsTopic, "createOffsetsTopic");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.ADD_OFFSETS_TO_TXN;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<AddOffsetsToTxnRequest> request) {
        AddOffsetsToTxnRequest body = request.body();
        TopicImage offsets = images.get().topics().topic(OffsetsTopic.NAME);
        if (offsets == null || offsets.partitions().isEmpty()) {
            createOffsetsTopic.run();
            return CompletableFuture.completedFuture(answer(Errors.COORDINATOR_NOT_AVAILABLE));
        }
        int partition = GroupCoordinator.partitionFor(body.groupId(), offsets.partitions().size());
        return controller.addOffsetsToTransaction(body.transactionalId(), body.producerId(), body.producerEpoch(),
                        body.groupId(), OffsetsTopic.NAME, partition, 1)
                .handle((ignored, failure) -> answer(failure == null ? Errors.NONE : TransactionErrors.forClient(
                        TransactionErrors.of(failure), request.version(), PRODUCER_FENCED_SINCE)));
    }

    @Override
    public Optional<AddOffsetsToTxnResponse> errorResponse(ApiRequest<AddOffsetsToTxnRequest> request, Errors error) {
        return Optional.of(new AddOffsetsToTxnResponse().setErrorCode(error.code()));
    }

    private static HandlerResponse answer(Errors error) {
        return HandlerResponse.of(new AddOffsetsToTxnResponse().setErrorCode(error.code()));
    }
}
