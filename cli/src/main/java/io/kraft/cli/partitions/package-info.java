/**
 * What the partition commands ({@code leader-election}, {@code reassign-partitions}) share: Kafka's JSON plan formats
 * read and written, and the plans computed from them.
 */
package io.kraft.cli.partitions;
