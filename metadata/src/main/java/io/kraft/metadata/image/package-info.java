/**
 * Immutable views of the cluster's metadata ({@link io.kraft.metadata.image.MetadataImage}) and the deltas that apply
 * records to them.
 *
 * <p>One replay path. {@link io.kraft.metadata.image.MetadataDelta} and its per-area deltas are the only code that
 * gives a metadata record its meaning; a new record type is written there once. Everything else derives from them:
 * <ul>
 *   <li>the loader applies each committed batch as a delta and publishes the image with it, so every component that
 *       consumes metadata sees an image and the delta that produced it and can act on only what changed;</li>
 *   <li>the RocksDB state store persists what a delta changed (brokers, topics created and deleted, partitions, config
 *       keys, producer ids, features) instead of interpreting records again;</li>
 *   <li>the active controller reads the committed image through a delta of the records it generated that have not
 *       committed yet, and keeps its indexes (ISR membership, replica counts) from the entity changes a delta reports
 *       to a {@link io.kraft.metadata.image.MetadataChangeListener}.</li>
 * </ul>
 * The read methods of a delta ({@code broker}, {@code topicId}, {@code partition}, {@code configs}, ...) give the
 * state including the delta without building an image.
 *
 * <p>Cost. An image's maps are persistent (structure-sharing) hash maps, so {@code apply()} copies only the paths to
 * what the delta changed and shares the rest with the image before: a committed batch costs what it changed, at any
 * cluster size, and a snapshot load builds the maps once through transient builders. Consumers keep to the same rule
 * and look only at what a delta reports; a pass over the whole image belongs to a snapshot load or an explicit
 * request (a Metadata request for all topics), never to the commit path.
 */
package io.kraft.metadata.image;
