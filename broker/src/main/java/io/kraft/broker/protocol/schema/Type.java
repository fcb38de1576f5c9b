package io.kraft.broker.protocol.schema;

/** The type of a schema field: a primitive, an array, or a nested struct. */
public sealed interface Type permits PrimitiveType, ArrayType, StructSchema {
}
