package io.kraft.broker.protocol.schema;

/** An array of primitives or structs; its value is a {@code java.util.List}. */
public record ArrayType(Type element) implements Type {
    public ArrayType {
        if (element instanceof ArrayType) {
            throw new IllegalArgumentException("Arrays of arrays do not occur in the protocol");
        }
    }
}
