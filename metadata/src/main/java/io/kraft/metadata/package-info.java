/** Metadata records, image and delta, quorum controller, RocksDB snapshot store. */
package io.kraft.metadata;
