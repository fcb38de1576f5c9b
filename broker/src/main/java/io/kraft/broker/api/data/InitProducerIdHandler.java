package io.kraft.broker.api.data;

import io.kraft.broker.api.txn.TransactionErrors;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.producer.ProducerIdManager;
import io.kraft.broker.producer.ProducerIdsUnavailableException;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.LogText;
import io.kraft.broker.protocol.message.InitProducerIdRequest;
import io.kraft.broker.protocol.message.InitProducerIdResponse;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.TransactionalProducer;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers InitProducerId (v0-5). For idempotent, non-transactional producers: a new producer id with epoch 0,
 * or, from v3 with the producer's current id and epoch (KIP-360), the same id with the next epoch, or a new id
 * once the epoch is used up. A new id may wait for the controller to allocate a block of them; the answer then
 * comes when the block arrives, and no handler thread waits for it.
 *
 * <p>Error choices follow what the Java producer does with each answer: any failure to get an id (broker not
 * registered yet, controller slow or unavailable) is COORDINATOR_LOAD_IN_PROGRESS, the one error it retries;
 * every other error ends the producer. A transactional.id goes to the transaction coordinator in the active
 * controller (which fences the id's previous producer); its errors reach the client as the request's version expects
 * them (PRODUCER_FENCED only from v4, KIP-588).
 */
public final class InitProducerIdHandler implements AsyncRequestHandler<InitProducerIdRequest, InitProducerIdResponse> {
    private static final Logger LOG = LoggerFactory.getLogger(InitProducerIdHandler.class);
    /** The last epoch a producer id may be bumped to; past it the producer gets a new id (as Kafka does). */
    static final short MAX_PRODUCER_EPOCH = Short.MAX_VALUE - 1;

    /** InitProducerId knows PRODUCER_FENCED from this version on (KIP-588). */
    static final int PRODUCER_FENCED_SINCE = 4;

    private final ProducerIdManager producerIds;
    private final Supplier<MetadataImage> images;
    private final TransactionalInit transactions;

    /** The transaction coordinator's InitProducerId (see {@link Controller#initTransactionalProducer}). */
    @FunctionalInterface
    public interface TransactionalInit {
        CompletableFuture<TransactionalProducer> init(String transactionalId, int timeoutMs, long producerId,
                                                      short producerEpoch);
    }

    public InitProducerIdHandler(ProducerIdManager producerIds, Supplier<MetadataImage> images,
                                 TransactionalInit transactions) {
        this.producerIds = Objects.requireNonNull(producerIds, "producerIds");
        this.images = Objects.requireNonNull(images, "images");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.INIT_PRODUCER_ID;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<InitProducerIdRequest> request) {
        InitProducerIdRequest body = request.body();
        String transactionalId = body.transactionalId();
        long producerId = request.version() >= 3 ? body.producerId() : -1L;
        short producerEpoch = request.version() >= 3 ? body.producerEpoch() : -1;
        if (transactionalId != null) {
            if (!context.authorize(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
                return answered(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, -1L, (short) -1);
            }
            return transactions.init(transactionalId, body.transactionTimeoutMs(), producerId,
                    producerEpoch).handle((producer, failure) -> {
                        Errors error = failure != null ? TransactionErrors.of(failure) : producer.error();
                        if (error != Errors.NONE) {
                            LOG.debug("InitProducerId for transactional.id {} from {}: {}", LogText.of(transactionalId),
                                    context.clientAddress(), error);
                            return answer(TransactionErrors.forClient(error, request.version(), PRODUCER_FENCED_SINCE),
                                    -1L, (short) -1);
                        }
                        return answer(Errors.NONE, producer.producerId(), producer.producerEpoch());
                    });
        }
        // An idempotent producer needs IdempotentWrite on the cluster, or WRITE on some topic (KIP-679).
        if (context.authorizationEnabled() && !context.authorizeCluster(AclOperation.IDEMPOTENT_WRITE)
                && !context.authorizeAnyResource(AclOperation.WRITE, ResourceType.TOPIC)) {
            return answered(Errors.CLUSTER_AUTHORIZATION_FAILED, -1L, (short) -1);
        }
        if ((producerId < 0) != (producerEpoch < 0)) {
            return answered(Errors.INVALID_REQUEST, -1L, (short) -1);
        }
        if (producerId >= 0) {
            if (producerId >= images.get().producerIds().nextProducerId()) {
                // Never handed out by this cluster: not a producer we can bump.
                return answered(Errors.INVALID_PRODUCER_ID_MAPPING, -1L, (short) -1);
            }
            if (producerEpoch < MAX_PRODUCER_EPOCH) {
                return answered(Errors.NONE, producerId, (short) (producerEpoch + 1));
            }
        }
        return producerIds.nextProducerId().handle((id, failure) -> {
            if (failure == null) {
                return answer(Errors.NONE, id, (short) 0);
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof ProducerIdsUnavailableException) {
                LOG.info("No producer id for {} yet: {}", context.clientAddress(), cause.getMessage());
                return answer(Errors.COORDINATOR_LOAD_IN_PROGRESS, -1L, (short) -1);
            }
            // Anything else is a bug: the request fails as a handler that throws does.
            throw failure instanceof CompletionException completion ? completion : new CompletionException(failure);
        });
    }

    private static CompletableFuture<HandlerResponse> answered(Errors error, long producerId, short producerEpoch) {
        return CompletableFuture.completedFuture(answer(error, producerId, producerEpoch));
    }

    private static HandlerResponse answer(Errors error, long producerId, short producerEpoch) {
        return HandlerResponse.of(new InitProducerIdResponse()
                .setErrorCode(error.code())
                .setProducerId(producerId)
                .setProducerEpoch(producerEpoch));
    }
}
