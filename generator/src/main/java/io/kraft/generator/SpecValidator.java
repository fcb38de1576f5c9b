package io.kraft.generator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks what parsed specs mean: names usable in Java and unique, version ranges that fit the
 * message, tags unique and only in flexible versions, nullability only for types that can be null,
 * defaults of the field's type, resolvable and acyclic structs, and one request and one response
 * per API key that agree on their versions; data specs (no API key) stand alone. Every problem is one
 * line naming the file and field.
 */
public final class SpecValidator {
    /** Simple names the generated code uses unqualified; a struct with one of these names would shadow it. */
    static final Set<String> RESERVED_TYPE_NAMES = Set.of(
            "Message", "ApiMessage", "FieldCodec", "ExternalRecords", "RecordsSink", "Varints", "Utf8",
            "MalformedMessageException", "BufferUnderflowException", "ByteBuffer", "List", "ArrayList", "Objects",
            "UUID", "String", "Object", "Integer", "Long", "Short", "Byte", "Boolean", "Double", "Math", "Override",
            "IllegalArgumentException", "IllegalStateException", "ApiKey", "ApiMessageFactory");
    /** Methods every generated struct has (besides Object's); a field's getter may not take one of these names. */
    static final Set<String> STRUCT_METHODS = Set.of(
            "equals", "hashCode", "toString", "getClass", "notify", "notifyAll", "wait", "clone", "finalize",
            "readFields", "sizeOfFields", "writeFields", "externalBytes", "isAllDefault");
    /** Further methods of a message body (the Message and ApiMessage interfaces and parse). */
    static final Set<String> MESSAGE_METHODS = Set.of(
            "apiKey", "lowestSupportedVersion", "highestSupportedVersion", "read", "parse", "size", "write",
            "externalRecordsBytes", "toBuffer");

    private final List<String> errors = new ArrayList<>();

    /** Validates every message and the pairs they form; returns the problems found, none if all is well. */
    public static List<String> validate(Collection<MessageSpec> messages) {
        SpecValidator v = new SpecValidator();
        for (MessageSpec m : messages) {
            v.message(m);
        }
        v.pairs(messages);
        return v.errors;
    }

    private void error(MessageSpec m, String field, String problem) {
        errors.add(SpecException.format(m.file(), field, problem));
    }

    private void message(MessageSpec m) {
        String expectedFile = m.name() + ".json";
        if (!m.file().equals(expectedFile)) {
            error(m, null, "message " + m.name() + " must be in a file called " + expectedFile);
        }
        if (!JavaNames.isUpperCamel(m.name()) || RESERVED_TYPE_NAMES.contains(m.name())) {
            error(m, null, "name " + m.name() + " is not usable as a Java class name");
        }
        if (m.isData()) {
            if (m.name().endsWith("Request") || m.name().endsWith("Response")) {
                error(m, null, "a data spec's name does not end with Request or Response (those name API bodies)");
            }
        } else if (!m.isRequest() && !m.isResponse()) {
            error(m, null, "type must be \"request\", \"response\" or \"data\", not \"" + m.type() + "\"");
        } else if (!m.name().endsWith(m.isRequest() ? "Request" : "Response")) {
            error(m, null, "a " + m.type() + "'s name ends with " + (m.isRequest() ? "Request" : "Response"));
        }
        if (m.validVersions().isEmpty() || m.validVersions().isOpen()) {
            error(m, null, "validVersions " + m.validVersions() + " must be a closed range such as 0-12");
        }
        if (!m.flexibleVersions().isEmpty() && !m.flexibleVersions().isOpen()) {
            error(m, null, "flexibleVersions " + m.flexibleVersions() + " must be \"none\" or open-ended such as 9+");
        }
        if (!structsResolve(m)) {
            return; // scopes and nested checks need every struct reference to resolve
        }
        StructScopes scopes = StructScopes.of(m);
        for (String name : m.structs().keySet()) {
            if (name.equals(m.name()) || RESERVED_TYPE_NAMES.contains(name)) {
                error(m, null, "struct name " + name + " clashes with a class name the generated code uses");
            }
            if (scopes.of(name).isEmpty()) {
                error(m, null, "struct " + name + " is not held by any field in any valid version");
            }
        }
        fields(m, m.body(), scopes, true);
        for (StructSpec s : m.structs().values()) {
            fields(m, s, scopes, false);
        }
    }

    /** Every struct reference resolves and no struct holds itself; reports otherwise. */
    private boolean structsResolve(MessageSpec m) {
        boolean ok = true;
        List<StructSpec> all = new ArrayList<>(m.structs().values());
        all.add(m.body());
        for (StructSpec s : all) {
            for (FieldSpec f : s.fields()) {
                String ref = f.type().structName();
                if (ref != null && !m.structs().containsKey(ref)) {
                    error(m, f.path(), "struct type " + ref + " is defined nowhere (give the field \"fields\" or add it to commonStructs)");
                    ok = false;
                }
            }
        }
        if (ok) {
            for (String name : m.structs().keySet()) {
                if (holds(m, name, name, new HashSet<>())) {
                    error(m, null, "struct " + name + " holds itself");
                    ok = false;
                }
            }
        }
        return ok;
    }

    private static boolean holds(MessageSpec m, String from, String target, Set<String> seen) {
        if (!seen.add(from)) {
            return false;
        }
        for (FieldSpec f : m.structs().get(from).fields()) {
            String ref = f.type().structName();
            if (ref != null && (ref.equals(target) || holds(m, ref, target, seen))) {
                return true;
            }
        }
        return false;
    }

    private void fields(MessageSpec m, StructSpec struct, StructScopes scopes, boolean body) {
        Versions scope = scopes.of(struct.name());
        Set<String> accessors = new HashSet<>();
        Map<Integer, String> tags = new HashMap<>();
        for (FieldSpec f : struct.fields()) {
            String p = f.path();
            if (!JavaNames.isLowerCamel(f.name()) || JavaNames.isKeyword(f.name())) {
                error(m, p, "name must be a lowerCamelCase Java identifier and not a keyword");
            }
            if (STRUCT_METHODS.contains(f.name()) || body && MESSAGE_METHODS.contains(f.name())) {
                error(m, p, "name clashes with a method every generated " + (body ? "message" : "struct") + " has");
            }
            for (String accessor : accessorNames(f)) {
                if (!accessors.add(accessor)) {
                    error(m, p, "accessor " + accessor + "() is taken by another field of " + struct.name());
                }
            }
            if (f.type() instanceof FieldType.ArrayOf a && a.element() == FieldType.Primitive.RECORDS) {
                error(m, p, "arrays of records are not supported");
            }
            versions(m, f, scope);
            nullability(m, f, scope);
            tag(m, f, scope, tags);
            defaultValue(m, f, scope);
        }
    }

    private static Set<String> accessorNames(FieldSpec f) {
        Set<String> names = new LinkedHashSet<>();
        names.add(f.name());
        if (f.type() == FieldType.Primitive.RECORDS) {
            names.add("external" + JavaNames.capitalize(f.name()));
        }
        return names;
    }

    private void versions(MessageSpec m, FieldSpec f, Versions scope) {
        Versions valid = m.validVersions();
        if (f.versions().isEmpty()) {
            error(m, f.path(), "versions must not be empty");
        } else if (!scope.isEmpty() && f.versions().intersect(scope).isEmpty()) {
            error(m, f.path(), "versions " + f.versions() + " lie outside the versions " + scope
                    + " in which its struct exists, so the field never exists");
        } else if (!f.versions().isOpen() && !valid.isEmpty() && f.versions().highest() > valid.highest()) {
            error(m, f.path(), "versions " + f.versions() + " end after the last valid version " + valid.highest());
        }
    }

    private void nullability(MessageSpec m, FieldSpec f, Versions scope) {
        if (f.nullableVersions().isEmpty()) {
            return;
        }
        boolean canBeNull = !(f.type() instanceof FieldType.Primitive p) || p.canBeNull();
        if (!canBeNull) {
            error(m, f.path(), "type " + f.type() + " cannot be nullable (only strings, bytes, records, arrays and structs are)");
        } else if (f.nullableVersions().intersect(f.versions()).intersect(scope).isEmpty()) {
            error(m, f.path(), "nullableVersions " + f.nullableVersions() + " never overlap the versions "
                    + f.versions().intersect(scope) + " in which the field exists");
        }
    }

    private void tag(MessageSpec m, FieldSpec f, Versions scope, Map<Integer, String> tags) {
        if (!f.isTagged()) {
            return;
        }
        String other = tags.putIfAbsent(f.tag(), f.name());
        if (other != null) {
            error(m, f.path(), "tag " + f.tag() + " is already used by field " + other);
        }
        Versions tagged = f.taggedVersions();
        if (!f.versions().containsAll(tagged) || tagged.highest() != f.versions().highest()) {
            error(m, f.path(), "taggedVersions " + tagged + " must be the field's versions " + f.versions()
                    + " from some version on");
        }
        Versions sent = tagged.intersect(scope);
        if (!m.flexibleVersions().containsAll(sent)) {
            error(m, f.path(), "tagged in versions " + sent + " but the message is flexible only in "
                    + m.flexibleVersions() + " (tagged fields exist only in flexible versions, KIP-482)");
        }
    }

    private void defaultValue(MessageSpec m, FieldSpec f, Versions scope) {
        Versions exists = f.versions().intersect(scope);
        if (f.defaultsToNull()) {
            if (!f.nullableVersions().containsAll(exists)) {
                error(m, f.path(), "defaults to null" + (f.hasDefault() ? "" : " (as records do)")
                        + " but is not nullable in all of its versions " + exists);
            }
            return;
        }
        if (!f.hasDefault()) {
            return;
        }
        Object value = f.defaultValue();
        String problem = null;
        if (f.type() instanceof FieldType.Primitive p) {
            switch (p) {
                case BOOL -> problem = value instanceof Boolean ? null : "needs a boolean default";
                case INT8 -> problem = integerIn(value, Byte.MIN_VALUE, Byte.MAX_VALUE);
                case INT16 -> problem = integerIn(value, Short.MIN_VALUE, Short.MAX_VALUE);
                case UINT16 -> problem = integerIn(value, 0, 0xFFFF);
                case INT32, VARINT -> problem = integerIn(value, Integer.MIN_VALUE, Integer.MAX_VALUE);
                case UINT32 -> problem = integerIn(value, 0, 0xFFFFFFFFL);
                case INT64, VARLONG -> problem = integerIn(value, Long.MIN_VALUE, Long.MAX_VALUE);
                case FLOAT64 -> problem = value instanceof Number ? null : "needs a numeric default";
                case STRING -> problem = value instanceof String ? null : "needs a string default";
                default -> problem = "can only default to null (or its implicit " + p + " default)";
            }
        } else {
            problem = "can only default to null (or its implicit empty " + (f.type() instanceof FieldType.ArrayOf
                    ? "array" : "struct") + ")";
        }
        if (problem != null) {
            error(m, f.path(), "default " + describe(value) + ": " + f.type() + " field " + problem);
        }
    }

    private static String integerIn(Object value, long min, long max) {
        if (!(value instanceof Long n)) {
            return "needs an integer default";
        }
        return n >= min && n <= max ? null : "needs a default in [" + min + ", " + max + "]";
    }

    private static String describe(Object value) {
        return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    }

    private void pairs(Collection<MessageSpec> messages) {
        Map<Short, MessageSpec> requests = new TreeMap<>();
        Map<Short, MessageSpec> responses = new TreeMap<>();
        for (MessageSpec m : messages) {
            if (!m.isRequest() && !m.isResponse()) {
                continue; // data specs stand alone; an unknown type is reported by message()
            }
            MessageSpec other = (m.isRequest() ? requests : responses).putIfAbsent(m.apiKey(), m);
            if (other != null) {
                error(m, null, "API key " + m.apiKey() + " already has a " + m.type() + ": " + other.file());
            }
        }
        for (MessageSpec request : requests.values()) {
            MessageSpec response = responses.get(request.apiKey());
            if (response == null) {
                error(request, null, "API key " + request.apiKey() + " has no response spec");
            } else if (!request.validVersions().equals(response.validVersions())
                    || !request.flexibleVersions().equals(response.flexibleVersions())) {
                error(response, null, "versions " + response.validVersions() + " (flexible " + response.flexibleVersions()
                        + ") differ from " + request.file() + "'s " + request.validVersions() + " (flexible "
                        + request.flexibleVersions() + ")");
            }
        }
        for (MessageSpec response : responses.values()) {
            if (!requests.containsKey(response.apiKey())) {
                error(response, null, "API key " + response.apiKey() + " has no request spec");
            }
        }
    }
}
