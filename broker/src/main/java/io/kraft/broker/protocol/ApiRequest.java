package io.kraft.broker.protocol;

import io.kraft.broker.protocol.message.ApiMessage;
import java.util.Objects;

/** A request read from one frame: its header, its API, and its typed body at {@code header.apiVersion()}. */
public record ApiRequest<Q extends ApiMessage>(RequestHeader header, ApiKey api, Q body) {

    public ApiRequest {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(body, "body");
    }

    public short version() {
        return header.apiVersion();
    }

    public int correlationId() {
        return header.correlationId();
    }
}
