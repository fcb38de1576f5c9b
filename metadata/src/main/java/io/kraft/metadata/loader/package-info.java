/**
 * Turning the committed metadata log into images: {@link io.kraft.metadata.loader.MetadataLoader} (image, stored
 * state through a {@link io.kraft.metadata.loader.MetadataStorage}, snapshot load and save), shared by the quorum
 * controller and by {@link io.kraft.metadata.loader.MetadataFollower}, the Raft listener of a broker-only node's
 * observer; and {@link io.kraft.metadata.loader.PublisherQueue}, which hands each image to the broker's components on
 * a publisher loop of their own, in order, and reports a publisher's failure as a fault.
 */
package io.kraft.metadata.loader;
