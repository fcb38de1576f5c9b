/**
 * The committed metadata state kept in RocksDB, one column family per kind of state, updated one committed batch at
 * a time together with the log position it reflects; RocksDB checkpoints of it are the metadata snapshots. The store
 * writes the entities a {@link io.kraft.metadata.image.MetadataDelta} changed, in their new state: it never
 * interprets records itself, so a new record type needs no code here unless it adds a new kind of entity.
 */
package io.kraft.metadata.store;
