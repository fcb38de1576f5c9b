package io.kraft.broker.protocol.schema;

/**
 * A request or response body declaration: the versions it is valid in, the first flexible version
 * (KIP-482: compact encodings and tagged fields from there on), and its top-level struct.
 */
public final class MessageSchema {
    private final String name;
    private final Versions validVersions;
    private final Versions flexibleVersions;
    private final StructSchema root;

    private MessageSchema(String name, Versions validVersions, Versions flexibleVersions, StructSchema root) {
        this.name = name;
        this.validVersions = validVersions;
        this.flexibleVersions = flexibleVersions;
        this.root = root;
        checkTaggedFieldsAreFlexible(root);
    }

    /**
     * Declares a message.
     *
     * @param validVersions    e.g. "0-13"
     * @param flexibleVersions e.g. "9+", or "none"
     */
    public static MessageSchema of(String name, String validVersions, String flexibleVersions, FieldSpec... fields) {
        return new MessageSchema(name, Versions.parse(validVersions), Versions.parse(flexibleVersions),
                StructSchema.of(name, fields));
    }

    public String name() {
        return name;
    }

    public Versions validVersions() {
        return validVersions;
    }

    public Versions flexibleVersions() {
        return flexibleVersions;
    }

    public boolean isFlexible(short version) {
        return flexibleVersions.contains(version);
    }

    public StructSchema root() {
        return root;
    }

    /** Shorthand for {@code root().field(name)}. */
    public Field field(String fieldName) {
        return root.field(fieldName);
    }

    /** A body with every field at its default. */
    public Struct newStruct() {
        return new Struct(root);
    }

    private void checkTaggedFieldsAreFlexible(StructSchema struct) {
        for (Field f : struct.fields()) {
            if (f.tag() >= 0) {
                Versions tagged = f.taggedVersions().intersect(validVersions);
                if (!tagged.isEmpty() && (!flexibleVersions.contains(tagged.lowest())
                        || !flexibleVersions.contains(tagged.highest()))) {
                    throw new IllegalArgumentException("Tagged field " + f + " of " + name
                            + " exists outside the flexible versions " + flexibleVersions);
                }
            }
            Type t = f.type() instanceof ArrayType a ? a.element() : f.type();
            if (t instanceof StructSchema nested) {
                checkTaggedFieldsAreFlexible(nested);
            }
        }
    }

    @Override
    public String toString() {
        return name + " v" + validVersions + " (flexible " + flexibleVersions + ")";
    }
}
