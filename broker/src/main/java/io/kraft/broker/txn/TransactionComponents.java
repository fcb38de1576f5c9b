package io.kraft.broker.txn;

import io.kraft.broker.api.txn.AddOffsetsToTxnHandler;
import io.kraft.broker.api.txn.AddPartitionsToTxnHandler;
import io.kraft.broker.api.txn.DescribeTransactionsHandler;
import io.kraft.broker.api.txn.EndTxnHandler;
import io.kraft.broker.api.txn.ListTransactionsHandler;
import io.kraft.broker.group.GroupConfig;
import io.kraft.broker.group.OffsetsTopic;
import io.kraft.broker.network.ApiHandler;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.image.MetadataSource;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A broker's share of transactions: the handlers of the transactional APIs (forwarded to the transaction coordinator in
 * the active controller, or answered from the image) and the marker publisher of the partitions it leads.
 */
public final class TransactionComponents implements AutoCloseable {
    /** How often a leader retries markers not written yet. */
    static final long MARKER_RETRY_INTERVAL_MS = 100;
    /** How often a leader repeats its report of written markers while the transaction is not complete. */
    static final long MARKER_REPORT_INTERVAL_MS = 500;
    /** How long a marker append waits for the in-sync replicas before it is retried. */
    static final long MARKER_APPEND_TIMEOUT_MS = 30_000;

    /** How long a transactional Produce waits for the image to show its partition in the transaction. */
    static final long VERIFY_MAX_WAIT_MS = 2_000;

    private final TransactionMarkerPublisher markers;
    private final TransactionVerifier verifier;
    private final ImplicitTransactionAdds implicitAdds;
    private final List<ApiHandler> handlers;

    private TransactionComponents(TransactionMarkerPublisher markers, TransactionVerifier verifier,
                                  ImplicitTransactionAdds implicitAdds, List<ApiHandler> handlers) {
        this.markers = markers;
        this.verifier = verifier;
        this.implicitAdds = implicitAdds;
        this.handlers = handlers;
    }

    /** Builds them and registers the marker publisher with {@code metadata} (before the log is replayed). */
    public static TransactionComponents create(int brokerId, LongSupplier brokerEpoch, Controller controller,
                                               MetadataSource metadata, ReplicaManager replicas,
                                               Map<String, String> properties) {
        TransactionMarkerPublisher markers = new TransactionMarkerPublisher(brokerId, brokerEpoch,
                controller::transactionMarkersWritten,
                new ReplicaTransactionMarkerWriter(replicas, MARKER_APPEND_TIMEOUT_MS),
                MARKER_RETRY_INTERVAL_MS, MARKER_REPORT_INTERVAL_MS, System::currentTimeMillis);
        metadata.register(markers);
        TransactionVerifier verifier = new TransactionVerifier(VERIFY_MAX_WAIT_MS);
        metadata.register(verifier);
        OffsetsTopic offsetsTopic = new OffsetsTopic(controller, metadata::image, GroupConfig.fromProperties(properties));
        List<ApiHandler> handlers = List.of(
                new AddPartitionsToTxnHandler(controller, metadata::image),
                new AddOffsetsToTxnHandler(controller, metadata::image, offsetsTopic::createIfAbsent),
                new EndTxnHandler(controller),
                new DescribeTransactionsHandler(metadata::image),
                new ListTransactionsHandler(metadata::image, System::currentTimeMillis));
        return new TransactionComponents(markers, verifier,
                new ImplicitTransactionAdds(controller, verifier, VERIFY_MAX_WAIT_MS, System::currentTimeMillis),
                handlers);
    }

    /** Adds a version 2 producer's partitions and groups to its transaction (KIP-890 part 2). */
    public ImplicitTransactionAdds implicitAdds() {
        return implicitAdds;
    }

    /** Checks transactional Produce against the transactions' partitions (KIP-890 part 1). */
    public TransactionVerifier verifier() {
        return verifier;
    }

    public List<ApiHandler> handlers() {
        return handlers;
    }

    @Override
    public void close() {
        markers.close();
    }
}
