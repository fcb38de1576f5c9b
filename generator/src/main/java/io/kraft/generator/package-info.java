/**
 * The build-time generator of kraft's typed protocol messages: JSON spec files (one per request or
 * response body, or per versioned data layout such as an internal topic's record) are parsed ({@link io.kraft.generator.SpecParser}), validated
 * ({@link io.kraft.generator.SpecValidator}) and turned into Java classes
 * ({@link io.kraft.generator.MessageGenerator}).
 *
 * <p>{@link io.kraft.generator.MessageClassWriter} writes one class per message: a final class
 * implementing {@code ApiMessage} (a data spec's: {@code Message}, without an API key) with one static
 * nested class per struct. The members come from one emitter per method family, sharing a
 * {@link io.kraft.generator.MessageContext}: {@link io.kraft.generator.FieldsEmitter} (fields,
 * constructors, getters and setters), {@link io.kraft.generator.MessageMethodsEmitter},
 * {@link io.kraft.generator.ReadEmitter}, {@link io.kraft.generator.SizeEmitter},
 * {@link io.kraft.generator.WriteEmitter} and {@link io.kraft.generator.ValueMethodsEmitter}. The
 * read, size and write methods are unrolled for each struct's fields, with the version checks that can
 * fail within the struct's scope and nothing else (no reflection, no boxing of scalars, no lookups).
 */
package io.kraft.generator;
