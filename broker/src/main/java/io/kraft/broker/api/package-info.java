/**
 * The Kafka APIs the broker answers, one handler per API, grouped by who calls them:
 * {@link io.kraft.broker.api.data} (producers and consumers: Produce, Metadata, ListOffsets, ...),
 * {@link io.kraft.broker.api.admin} (the Admin client: topics, partitions, configs, cluster) and
 * {@link io.kraft.broker.api.group} (the group coordinator's APIs). Fetch has its own package,
 * {@link io.kraft.broker.fetch}. This package holds what several handlers share: request topic names as
 * partitions, and the leaders' endpoints a NOT_LEADER answer carries.
 */
package io.kraft.broker.api;
