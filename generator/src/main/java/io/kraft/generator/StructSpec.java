package io.kraft.generator;

import java.util.List;

/** A struct of a message: the message body itself, a struct defined inline by a field, or a common struct. */
public record StructSpec(String name, List<FieldSpec> fields) {
}
