package io.kraft.broker.protocol.message;

/**
 * A typed request or response body, generated from {@code broker/src/main/messages/*.json}: read,
 * sized and written at any version the API supports.
 */
public interface ApiMessage extends Message {
    short apiKey();
}
