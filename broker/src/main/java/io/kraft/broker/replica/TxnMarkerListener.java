package io.kraft.broker.replica;

import io.kraft.storage.log.TopicPartition;

/**
 * Told when a transaction marker this broker wrote as leader is committed (the high watermark passed it), for
 * coordinators that keep a transaction's effects pending in memory: the group coordinator's TxnOffsetCommit offsets
 * in {@code __consumer_offsets} (KIP-98). Called on whichever thread completed the write; must return quickly.
 */
@FunctionalInterface
public interface TxnMarkerListener {

    void onMarkerWritten(TopicPartition partition, TxnMarker marker);
}
