/**
 * Handlers of the data path's APIs besides Fetch: Produce (through the replica manager, acks 0/1/all),
 * Metadata (with topic auto-creation), ApiVersions, InitProducerId, and the per-partition requests ListOffsets,
 * OffsetForLeaderEpoch and DeleteRecords, which share one request loop ({@link io.kraft.broker.api.data.PartitionRequests}).
 */
package io.kraft.broker.api.data;
