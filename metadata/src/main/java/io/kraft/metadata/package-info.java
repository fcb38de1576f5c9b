/**
 * Metadata records, image and delta, quorum controller, RocksDB snapshot store.
 *
 * <p>Records are the protobuf {@code io.kraft.proto.metadata.MetadataRecord} envelopes built by
 * {@link io.kraft.metadata.MetadataRecords}; {@code image} holds the immutable views and the deltas that
 * apply records to them, {@code controller} the control managers that validate requests and generate
 * records, and {@code store} the committed state in RocksDB with its checkpoints.
 */
package io.kraft.metadata;
