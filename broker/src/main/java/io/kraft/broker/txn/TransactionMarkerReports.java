package io.kraft.broker.txn;

import io.kraft.metadata.controller.TransactionMarkersWritten;
import java.util.concurrent.CompletableFuture;

/** Where a leader reports the markers it wrote: the transaction coordinator in the active controller. */
@FunctionalInterface
public interface TransactionMarkerReports {
    /** Completes once the controller has taken the report in (failing if it could not be reached). */
    CompletableFuture<Void> markersWritten(TransactionMarkersWritten report);
}
