package io.kraft.generator;

/**
 * Where the hand-written runtime the generated classes build on lives in the broker: the wire
 * primitives and records plumbing of the codec, and the API key enum. {@code Message} and
 * {@code ApiMessage} are expected in the package the classes are generated into.
 */
final class RuntimeNames {
    static final String CODEC_PACKAGE = "io.kraft.broker.protocol.codec";
    static final String API_KEY = "io.kraft.broker.protocol.ApiKey";
    static final String GENERATOR = "io.kraft.generator.MessageGenerator";

    private RuntimeNames() {
    }
}
