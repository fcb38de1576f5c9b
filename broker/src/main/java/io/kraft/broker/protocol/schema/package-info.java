/**
 * The schema-driven codec: a message is declared once as fields with version ranges
 * ({@link io.kraft.broker.protocol.schema.FieldSpec}), and the one generic
 * {@link io.kraft.broker.protocol.schema.MessageReader} / {@link io.kraft.broker.protocol.schema.MessageWriter}
 * read and write it at any version, classic or flexible (KIP-482), into a generic
 * {@link io.kraft.broker.protocol.schema.Struct}.
 */
package io.kraft.broker.protocol.schema;
