package io.kraft.broker.api.txn;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ListTransactionsRequest;
import io.kraft.broker.protocol.message.ListTransactionsResponse;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.metadata.image.TransactionState;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Answers ListTransactions (v0-2) from this broker's metadata image, which holds every transactional id: filters by
 * state names (unknown ones are echoed back), producer ids, from v1 by a duration an open transaction has run past
 * (an id with no open transaction has no start, so never passes), and from v2 by a regular expression on the
 * transactional id (an invalid one is INVALID_REGULAR_EXPRESSION).
 */
public final class ListTransactionsHandler
        implements RequestHandler<ListTransactionsRequest, ListTransactionsResponse> {
    private final Supplier<MetadataImage> images;
    private final LongSupplier clockMs;

    public ListTransactionsHandler(Supplier<MetadataImage> images, LongSupplier clockMs) {
        this.images = Objects.requireNonNull(images, "images");
        this.clockMs = Objects.requireNonNull(clockMs, "clockMs");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.LIST_TRANSACTIONS;
    }

    @Override
    public ListTransactionsResponse handle(RequestContext context, ApiRequest<ListTransactionsRequest> request) {
        ListTransactionsRequest body = request.body();
        ListTransactionsResponse response = new ListTransactionsResponse();
        Set<TransactionState> states = new HashSet<>();
        List<String> unknown = new ArrayList<>();
        for (String name : body.stateFilters()) {
            TransactionState match = null;
            for (TransactionState state : TransactionState.values()) {
                if (state.kafkaName().equals(name)) {
                    match = state;
                }
            }
            if (match == null) {
                unknown.add(name);
            } else {
                states.add(match);
            }
        }
        response.setUnknownStateFilters(unknown);
        Set<Long> producerIds = new HashSet<>(body.producerIdFilters());
        long minDurationMs = request.version() >= 1 ? body.durationFilter() : -1L;
        Pattern pattern = null;
        String idPattern = request.version() >= 2 ? body.transactionalIdPattern() : null;
        if (idPattern != null && !idPattern.isEmpty()) {
            try {
                pattern = Pattern.compile(idPattern);
            } catch (PatternSyntaxException e) {
                return response.setErrorCode(Errors.INVALID_REGULAR_EXPRESSION.code());
            }
        }
        long nowMs = clockMs.getAsLong();
        Pattern idFilter = pattern;
        images.get().transactions().transactions().values().stream()
                .filter(txn -> !body.stateFilters().isEmpty() ? states.contains(txn.state()) : true)
                .filter(txn -> producerIds.isEmpty() || producerIds.contains(txn.producerId()))
                .filter(txn -> minDurationMs < 0 || (txn.startTimeMs() >= 0 && nowMs - txn.startTimeMs() > minDurationMs))
                .filter(txn -> idFilter == null || idFilter.matcher(txn.transactionalId()).matches())
                .filter(txn -> context.authorizeQuietly(AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID,
                        txn.transactionalId()))
                .sorted(Comparator.comparing(TransactionMetadata::transactionalId))
                .forEach(txn -> response.transactionStates().add(new ListTransactionsResponse.TransactionState()
                        .setTransactionalId(txn.transactionalId())
                        .setProducerId(txn.producerId())
                        .setTransactionState(txn.state().kafkaName())));
        return response.setErrorCode(Errors.NONE.code());
    }
}
