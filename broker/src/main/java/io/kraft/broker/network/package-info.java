/**
 * The Kafka wire server: Netty listener, request framing, the bounded handler pool, and the
 * per-connection ordering of responses.
 */
package io.kraft.broker.network;
