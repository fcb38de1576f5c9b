/**
 * Incremental fetch sessions (KIP-227): the broker remembers each session's partitions and what it last told
 * about them, so a client's incremental Fetch names only partitions whose position changed and is answered
 * only with partitions that have something new. The cache is bounded by
 * {@code max.incremental.fetch.session.cache.slots}.
 */
package io.kraft.broker.fetch;
