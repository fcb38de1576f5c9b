/**
 * The partition leaders' side of the transaction coordinator: {@link io.kraft.broker.txn.TransactionMarkerPublisher}
 * sees a transaction decided (PrepareCommit/PrepareAbort) in the metadata image, has the markers written into the
 * partitions this broker leads through a {@link io.kraft.broker.txn.TransactionMarkerWriter}, and reports them to the
 * controller until the image shows the transaction complete.
 */
package io.kraft.broker.txn;
