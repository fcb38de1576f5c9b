/**
 * Typed request and response bodies, and versioned data layouts that are no API's body (the
 * {@code __consumer_offsets} records, the consumer protocol's subscription and assignment): one class
 * per message (nested classes for its structs), generated at build time by {@code kraft-generator}
 * from {@code broker/src/main/messages/*.json} into {@code target/generated-sources/messages}, plus
 * {@code ApiMessageFactory}. Only {@link io.kraft.broker.protocol.message.Message} (what every body
 * offers), {@link io.kraft.broker.protocol.message.ApiMessage} (an API's body) and
 * {@link io.kraft.broker.protocol.codec.FieldCodec} (the wire encodings the generated code calls)
 * are written by hand. A misspelt field name fails to compile, unlike the string keys of the
 * schema codec in {@code protocol.schema} that these classes are to replace.
 */
package io.kraft.broker.protocol.message;
