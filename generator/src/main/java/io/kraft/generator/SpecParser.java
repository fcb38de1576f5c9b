package io.kraft.generator;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one spec file's JSON into a {@link MessageSpec}. Checks only the shape (known keys, value
 * kinds, an API key exactly when the spec is not a data spec, parsable types and version ranges,
 * struct definitions); {@link SpecValidator} checks meaning.
 */
public final class SpecParser {
    private static final Set<String> MESSAGE_KEYS = Set.of(
            "apiKey", "type", "name", "validVersions", "flexibleVersions", "fields", "commonStructs");
    private static final Set<String> FIELD_KEYS = Set.of(
            "name", "type", "versions", "nullableVersions", "tag", "taggedVersions", "default", "fields");
    private static final Set<String> STRUCT_KEYS = Set.of("name", "fields");

    private final ObjectMapper mapper = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** Parses {@code json}, the content of spec file {@code file} (its name, used in errors). */
    public MessageSpec parse(String file, String json) throws SpecException {
        JsonNode root;
        try {
            root = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
            throw new SpecException(file, null, "invalid JSON" + where + ": " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new SpecException(file, null, "the spec must be one JSON object");
        }
        return new FileParser(file).message(root);
    }

    /** Parsing state of one file: the structs defined so far, by name. */
    private static final class FileParser {
        private final String file;
        private final Map<String, StructSpec> structs = new LinkedHashMap<>();

        FileParser(String file) {
            this.file = file;
        }

        MessageSpec message(JsonNode root) throws SpecException {
            checkKeys(root, MESSAGE_KEYS, null, "the message");
            String type = text(root, "type", null);
            int apiKey = MessageSpec.NO_API_KEY;
            if (type.equals(MessageSpec.DATA)) {
                if (root.has("apiKey")) {
                    throw new SpecException(file, null, "a data spec is no API's body and has no \"apiKey\"");
                }
            } else {
                apiKey = intValue(root, "apiKey", null);
                if (apiKey < 0 || apiKey > Short.MAX_VALUE) {
                    throw new SpecException(file, null, "apiKey " + apiKey + " is not a valid API key");
                }
            }
            String name = text(root, "name", null);
            Versions valid = versions(root, "validVersions", null, true);
            Versions flexible = versions(root, "flexibleVersions", null, true);
            List<FieldSpec> fields = fields(root.get("fields"), "");
            JsonNode common = root.get("commonStructs");
            if (common != null) {
                if (!common.isArray()) {
                    throw new SpecException(file, null, "commonStructs must be an array");
                }
                for (JsonNode struct : common) {
                    if (!struct.isObject()) {
                        throw new SpecException(file, null, "each of commonStructs must be an object");
                    }
                    String structName = text(struct, "name", null);
                    checkKeys(struct, STRUCT_KEYS, null, "common struct " + structName);
                    define(structName, fields(struct.get("fields"), structName + "."), structName);
                }
            }
            return new MessageSpec(file, (short) apiKey, type, name, valid, flexible, new StructSpec(name, fields),
                    structs);
        }

        private List<FieldSpec> fields(JsonNode node, String prefix) throws SpecException {
            String owner = prefix.isEmpty() ? "the message" : "struct " + prefix.substring(0, prefix.length() - 1);
            if (node == null || !node.isArray()) {
                throw new SpecException(file, null, owner + " needs a \"fields\" array");
            }
            List<FieldSpec> fields = new ArrayList<>();
            int index = 0;
            for (JsonNode f : node) {
                if (!f.isObject()) {
                    throw new SpecException(file, null, "field " + index + " of " + owner + " is not an object");
                }
                fields.add(field(f, prefix));
                index++;
            }
            return fields;
        }

        private FieldSpec field(JsonNode node, String prefix) throws SpecException {
            JsonNode nameNode = node.get("name");
            String name = nameNode != null && nameNode.isTextual() ? nameNode.asText() : null;
            String path = prefix + (name == null ? "?" : name);
            if (name == null) {
                throw new SpecException(file, path, "needs a string \"name\"");
            }
            checkKeys(node, FIELD_KEYS, path, null);
            FieldType type;
            try {
                type = FieldType.parse(text(node, "type", path));
            } catch (IllegalArgumentException e) {
                throw new SpecException(file, path, e.getMessage());
            }
            Versions versions = versions(node, "versions", path, true);
            Versions nullable = versions(node, "nullableVersions", path, false);
            int tag = -1;
            if (node.has("tag")) {
                tag = intValue(node, "tag", path);
                if (tag < 0) {
                    throw new SpecException(file, path, "tag " + tag + " is negative");
                }
            }
            Versions tagged = versions(node, "taggedVersions", path, false);
            if ((tag >= 0) != node.has("taggedVersions")) {
                throw new SpecException(file, path, "a tagged field needs both \"tag\" and \"taggedVersions\"");
            }
            boolean hasDefault = node.has("default");
            Object defaultValue = hasDefault ? defaultValue(node.get("default"), path) : null;
            List<FieldSpec> inline = null;
            if (node.has("fields")) {
                String structName = type.structName();
                if (structName == null) {
                    throw new SpecException(file, path, "has \"fields\" but its type " + type + " is not a struct");
                }
                inline = fields(node.get("fields"), path + ".");
                define(structName, inline, path);
            }
            return new FieldSpec(path, name, type, versions, nullable, tag, tagged, hasDefault, defaultValue, inline);
        }

        private void define(String structName, List<FieldSpec> fields, String path) throws SpecException {
            if (structs.putIfAbsent(structName, new StructSpec(structName, fields)) != null) {
                throw new SpecException(file, path, "defines struct " + structName
                        + " a second time (declare a struct used twice once, under commonStructs)");
            }
        }

        private Object defaultValue(JsonNode node, String path) throws SpecException {
            if (node.isNull()) {
                return null;
            }
            if (node.isBoolean()) {
                return node.booleanValue();
            }
            if (node.isTextual()) {
                return node.textValue();
            }
            if (node.isIntegralNumber()) {
                if (!node.canConvertToLong()) {
                    throw new SpecException(file, path, "default " + node + " does not fit in 64 bits");
                }
                return node.longValue();
            }
            if (node.isNumber()) {
                return node.doubleValue();
            }
            throw new SpecException(file, path, "default must be a number, boolean, string or null, not " + node);
        }

        private void checkKeys(JsonNode node, Set<String> allowed, String path, String what) throws SpecException {
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String key = it.next();
                if (!allowed.contains(key)) {
                    throw new SpecException(file, path, (what == null ? "" : what + " has ")
                            + "unknown key \"" + key + "\" (known: " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
                }
            }
        }

        private String text(JsonNode node, String key, String path) throws SpecException {
            JsonNode value = node.get(key);
            if (value == null || !value.isTextual()) {
                throw new SpecException(file, path, "needs a string \"" + key + "\"");
            }
            return value.textValue();
        }

        private int intValue(JsonNode node, String key, String path) throws SpecException {
            JsonNode value = node.get(key);
            if (value == null || !value.isIntegralNumber() || !value.canConvertToInt()) {
                throw new SpecException(file, path, "needs an integer \"" + key + "\"");
            }
            return value.intValue();
        }

        private Versions versions(JsonNode node, String key, String path, boolean required) throws SpecException {
            if (!node.has(key)) {
                if (required) {
                    throw new SpecException(file, path, "needs a version range \"" + key + "\"");
                }
                return Versions.NONE;
            }
            try {
                return Versions.parse(text(node, key, path));
            } catch (IllegalArgumentException e) {
                throw new SpecException(file, path, key + ": " + e.getMessage());
            }
        }
    }
}
