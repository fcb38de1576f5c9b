/**
 * The Kafka wire protocol: API keys and version ranges ({@link io.kraft.broker.protocol.ApiKey},
 * {@link io.kraft.broker.protocol.ApiVersionsTable}), request/response headers, and the frame entry
 * points {@link io.kraft.broker.protocol.RequestFrame} (parse, with one specific exception per kind of
 * bad input) and {@link io.kraft.broker.protocol.ResponseFrame} (size, then write once).
 */
package io.kraft.broker.protocol;
