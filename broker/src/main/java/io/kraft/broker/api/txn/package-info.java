/**
 * Handlers of the transactional APIs a producer uses (InitProducerId with a transactional id is in {@code data}):
 * AddPartitionsToTxn, AddOffsetsToTxn and EndTxn forward to the transaction coordinator in the active controller;
 * DescribeTransactions and ListTransactions answer from the broker's metadata image.
 */
package io.kraft.broker.api.txn;
