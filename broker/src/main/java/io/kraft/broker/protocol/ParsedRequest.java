package io.kraft.broker.protocol;

import io.kraft.broker.protocol.schema.Struct;

/** A request read from one frame: its header, its API, and its body at {@code header.apiVersion()}. */
public record ParsedRequest(RequestHeader header, ApiKey api, Struct body) {

    public short version() {
        return header.apiVersion();
    }

    public int correlationId() {
        return header.correlationId();
    }
}
