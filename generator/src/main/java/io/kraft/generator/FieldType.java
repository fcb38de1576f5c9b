package io.kraft.generator;

/** The type of a spec field: a primitive, an array of primitives or structs, or a struct named in the message. */
public sealed interface FieldType permits FieldType.Primitive, FieldType.ArrayOf, FieldType.StructRef {

    /** Parses a spec type name: a primitive ("int32"), a struct ("TopicData"), or an array of either ("[]int32"). */
    static FieldType parse(String text) {
        if (text.startsWith("[]")) {
            FieldType element = parse(text.substring(2));
            if (element instanceof ArrayOf) {
                throw new IllegalArgumentException("arrays of arrays do not occur in the protocol: '" + text + "'");
            }
            return new ArrayOf(element);
        }
        for (Primitive p : Primitive.values()) {
            if (p.specName.equals(text)) {
                return p;
            }
        }
        if (!JavaNames.isUpperCamel(text)) {
            throw new IllegalArgumentException("unknown type '" + text + "' (a struct type is UpperCamelCase)");
        }
        return new StructRef(text);
    }

    /** The struct this type holds (directly or as array elements), or null. */
    default String structName() {
        if (this instanceof StructRef s) {
            return s.name();
        }
        if (this instanceof ArrayOf a && a.element() instanceof StructRef s) {
            return s.name();
        }
        return null;
    }

    /** The protocol's scalar and variable-length primitive types. */
    enum Primitive implements FieldType {
        BOOL("bool", 1),
        INT8("int8", 1),
        INT16("int16", 2),
        UINT16("uint16", 2),
        INT32("int32", 4),
        UINT32("uint32", 4),
        INT64("int64", 8),
        VARINT("varint", -1),
        VARLONG("varlong", -1),
        FLOAT64("float64", 8),
        UUID("uuid", 16),
        STRING("string", -1),
        BYTES("bytes", -1),
        /** Record batches: bytes read as a zero-copy slice, or external records written by the transport. */
        RECORDS("records", -1);

        private final String specName;
        private final int fixedSize;

        Primitive(String specName, int fixedSize) {
            this.specName = specName;
            this.fixedSize = fixedSize;
        }

        public String specName() {
            return specName;
        }

        /** Wire size for fixed-size types, -1 for variable-size ones. */
        public int fixedSize() {
            return fixedSize;
        }

        /** Numbers and booleans: held unboxed, compared with ==. */
        public boolean isScalar() {
            return ordinal() <= FLOAT64.ordinal();
        }

        /** Types whose values may be null on the wire in nullable versions. */
        public boolean canBeNull() {
            return this == STRING || this == BYTES || this == RECORDS;
        }

        @Override
        public String toString() {
            return specName;
        }
    }

    /** An array of primitives or of structs. */
    record ArrayOf(FieldType element) implements FieldType {
        @Override
        public String toString() {
            return "[]" + element;
        }
    }

    /** A struct declared in the same message, inline or under "commonStructs". */
    record StructRef(String name) implements FieldType {
        @Override
        public String toString() {
            return name;
        }
    }
}
