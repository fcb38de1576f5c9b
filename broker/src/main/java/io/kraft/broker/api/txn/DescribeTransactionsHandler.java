package io.kraft.broker.api.txn;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DescribeTransactionsRequest;
import io.kraft.broker.protocol.message.DescribeTransactionsResponse;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Answers DescribeTransactions (v0) from this broker's metadata image, where the coordinator's state is: any broker
 * can answer for any transactional id. An unknown id is TRANSACTIONAL_ID_NOT_FOUND.
 */
public final class DescribeTransactionsHandler
        implements RequestHandler<DescribeTransactionsRequest, DescribeTransactionsResponse> {
    private final Supplier<MetadataImage> images;

    public DescribeTransactionsHandler(Supplier<MetadataImage> images) {
        this.images = Objects.requireNonNull(images, "images");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_TRANSACTIONS;
    }

    @Override
    public DescribeTransactionsResponse handle(RequestContext context, ApiRequest<DescribeTransactionsRequest> request) {
        MetadataImage image = images.get();
        DescribeTransactionsResponse response = new DescribeTransactionsResponse();
        for (String id : request.body().transactionalIds()) {
            TransactionMetadata txn = image.transactions().transaction(id);
            DescribeTransactionsResponse.TransactionState state = new DescribeTransactionsResponse.TransactionState()
                    .setTransactionalId(id);
            if (!context.authorize(AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, id)) {
                state.setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code()).setTransactionState("")
                        .setProducerId(-1L).setProducerEpoch((short) -1).setTransactionStartTimeMs(-1L);
            } else if (txn == null) {
                state.setErrorCode(Errors.TRANSACTIONAL_ID_NOT_FOUND.code()).setTransactionState("")
                        .setProducerId(-1L).setProducerEpoch((short) -1).setTransactionStartTimeMs(-1L);
            } else {
                state.setErrorCode(Errors.NONE.code())
                        .setTransactionState(txn.state().kafkaName())
                        .setTransactionTimeoutMs(txn.timeoutMs())
                        .setTransactionStartTimeMs(txn.startTimeMs())
                        .setProducerId(txn.producerId())
                        .setProducerEpoch(txn.producerEpoch());
                TransactionListing.partitionsByTopic(image, txn).forEach((topic, partitions) ->
                        state.topics().add(new DescribeTransactionsResponse.TopicData().setTopic(topic)
                                .setPartitions(partitions)));
            }
            response.transactionStates().add(state);
        }
        return response;
    }
}
