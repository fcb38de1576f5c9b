/**
 * Turning the committed metadata log into images: {@link io.kraft.metadata.loader.MetadataLoader} (image, RocksDB
 * state, snapshot load and save, publishing), shared by the quorum controller and by
 * {@link io.kraft.metadata.loader.MetadataFollower}, the Raft listener of a broker-only node's observer.
 */
package io.kraft.metadata.loader;
