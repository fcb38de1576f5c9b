/**
 * Idempotent producer state of one partition (KIP-98): per producer id its epoch and the last few
 * batches appended, used to fence stale epochs, reject sequence gaps and answer retried batches with
 * their original offsets; persisted as {@code .snapshot} files beside the segments.
 */
package io.kraft.storage.log.producer;
