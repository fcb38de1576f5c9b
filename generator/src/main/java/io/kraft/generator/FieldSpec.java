package io.kraft.generator;

import java.util.List;

/**
 * One field as its spec file declares it. {@code path} names it for error messages
 * ("topicData.partitionData.records"); {@code tag} is -1 for a field that is never tagged;
 * {@code defaultValue} is the JSON default as parsed (Long, Double, Boolean, String or null) and
 * {@code hasDefault} says whether one was given at all.
 */
public record FieldSpec(String path, String name, FieldType type, Versions versions, Versions nullableVersions,
                        int tag, Versions taggedVersions, boolean hasDefault, Object defaultValue,
                        List<FieldSpec> inlineFields) {

    public boolean isTagged() {
        return tag >= 0;
    }

    /** Whether the field's default is null: declared so, or implicit for records. */
    public boolean defaultsToNull() {
        return hasDefault ? defaultValue == null : type == FieldType.Primitive.RECORDS;
    }
}
