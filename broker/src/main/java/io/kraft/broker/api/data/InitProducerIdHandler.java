package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.producer.ProducerIdManager;
import io.kraft.broker.producer.ProducerIdsUnavailableException;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.InitProducerIdMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers InitProducerId (v0-5) for idempotent, non-transactional producers: a new producer id with epoch 0,
 * or, from v3 with the producer's current id and epoch (KIP-360), the same id with the next epoch, or a new id
 * once the epoch is used up.
 *
 * <p>Error choices follow what the Java producer does with each answer: any failure to get an id (broker not
 * registered yet, controller slow or unavailable) is Errors.COORDINATOR_LOAD_IN_PROGRESS.code(), the one error it retries;
 * every other error ends the producer. A transactional.id is answered with UNSUPPORTED_VERSION: transactions
 * are not implemented, and that error makes {@code initTransactions()} fail at once with "The version of API is
 * not supported" (COORDINATOR_NOT_AVAILABLE would make it retry until max.block.ms, and an authorization error
 * would send the user looking at ACLs).
 */
public final class InitProducerIdHandler implements LegacyRequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(InitProducerIdHandler.class);
    /** The last epoch a producer id may be bumped to; past it the producer gets a new id (as Kafka does). */
    static final short MAX_PRODUCER_EPOCH = Short.MAX_VALUE - 1;

    private final ProducerIdManager producerIds;
    private final Supplier<MetadataImage> images;

    public InitProducerIdHandler(ProducerIdManager producerIds, Supplier<MetadataImage> images) {
        this.producerIds = Objects.requireNonNull(producerIds, "producerIds");
        this.images = Objects.requireNonNull(images, "images");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.INIT_PRODUCER_ID;
    }

    @Override
    public Struct handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        String transactionalId = body.getString("transactional_id");
        long producerId = request.version() >= 3 ? body.getLong("producer_id") : -1L;
        short producerEpoch = request.version() >= 3 ? body.getShort("producer_epoch") : -1;
        Struct response = InitProducerIdMessages.RESPONSE.newStruct();
        if (transactionalId != null) {
            LOG.warn("Refused InitProducerId for transactional.id {} from {}: transactions are not supported yet",
                    transactionalId, context.clientAddress());
            return answer(response, Errors.UNSUPPORTED_VERSION.code(), -1L, (short) -1);
        }
        if ((producerId < 0) != (producerEpoch < 0)) {
            return answer(response, Errors.INVALID_REQUEST.code(), -1L, (short) -1);
        }
        if (producerId >= 0) {
            if (producerId >= images.get().producerIds().nextProducerId()) {
                // Never handed out by this cluster: not a producer we can bump.
                return answer(response, Errors.INVALID_PRODUCER_ID_MAPPING.code(), -1L, (short) -1);
            }
            if (producerEpoch < MAX_PRODUCER_EPOCH) {
                return answer(response, Errors.NONE.code(), producerId, (short) (producerEpoch + 1));
            }
        }
        try {
            return answer(response, Errors.NONE.code(), producerIds.nextProducerId(), (short) 0);
        } catch (ProducerIdsUnavailableException e) {
            LOG.info("No producer id for {} yet: {}", context.clientAddress(), e.getMessage());
            return answer(response, Errors.COORDINATOR_LOAD_IN_PROGRESS.code(), -1L, (short) -1);
        }
    }

    private static Struct answer(Struct response, short errorCode, long producerId, short producerEpoch) {
        response.setShort(response.field("error_code"), errorCode);
        response.setLong(response.field("producer_id"), producerId);
        response.setShort(response.field("producer_epoch"), producerEpoch);
        return response;
    }
}
