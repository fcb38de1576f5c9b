/**
 * Immutable views of the cluster's metadata ({@link io.kraft.metadata.image.MetadataImage}) and the deltas
 * that apply committed records to them. Every component that consumes metadata sees an image and the
 * delta that produced it, so it can act on only what changed.
 */
package io.kraft.metadata.image;
