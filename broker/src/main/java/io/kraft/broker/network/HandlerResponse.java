package io.kraft.broker.network;

import io.kraft.broker.protocol.message.ApiMessage;
import java.util.Objects;

/**
 * What a handler answers: a response body (which may hold {@link FileSliceRecords} sent with zero copy),
 * nothing at all (Produce with acks=0, whose client reads no response), or "close this connection" (the
 * protocol's way to tell an acks=0 producer that its request failed), or a body followed by a close.
 */
public sealed interface HandlerResponse permits HandlerResponse.Body, HandlerResponse.NoResponse,
        HandlerResponse.CloseConnection, HandlerResponse.BodyThenClose {

    /** A response body, written at the request's version. */
    record Body(ApiMessage body) implements HandlerResponse {
        public Body {
            Objects.requireNonNull(body, "body");
        }
    }


    /** A response body, after which the connection is closed (Kafka's answer to a failed SASL authentication). */
    record BodyThenClose(ApiMessage body, String reason) implements HandlerResponse {
        public BodyThenClose {
            Objects.requireNonNull(body, "body");
        }
    }

    /** No bytes go back; the request's turn in the response order passes silently. */
    record NoResponse() implements HandlerResponse {
    }

    /** The connection is closed when this request's turn comes, after the responses before it. */
    record CloseConnection(String reason) implements HandlerResponse {
    }

    static HandlerResponse of(ApiMessage body) {
        return new Body(body);
    }

    static HandlerResponse thenClose(ApiMessage body, String reason) {
        return new BodyThenClose(body, reason);
    }

    static HandlerResponse none() {
        return new NoResponse();
    }

    static HandlerResponse closeConnection(String reason) {
        return new CloseConnection(reason);
    }
}
