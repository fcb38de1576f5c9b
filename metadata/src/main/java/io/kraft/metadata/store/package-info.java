/**
 * The committed metadata state kept in RocksDB, one column family per kind of state, updated one
 * committed batch at a time together with the log position it reflects; RocksDB checkpoints of it are
 * the metadata snapshots.
 */
package io.kraft.metadata.store;
