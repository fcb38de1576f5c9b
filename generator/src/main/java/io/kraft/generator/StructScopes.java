package io.kraft.generator;

import java.util.HashMap;
import java.util.Map;

/**
 * The versions in which each struct of a message can be read or written: the body's are the valid
 * versions; a nested struct's are the hull of the versions of the fields holding it (within their
 * own struct's). Generated code leaves out version checks that always hold within a struct's scope.
 */
public final class StructScopes {
    private final Map<String, Versions> scopes = new HashMap<>();

    private StructScopes() {
    }

    /** Computes the scopes of {@code message}, whose struct references must resolve and must not form cycles. */
    public static StructScopes of(MessageSpec message) {
        StructScopes result = new StructScopes();
        result.scopes.put(message.name(), message.validVersions());
        result.visit(message, message.body(), message.validVersions());
        return result;
    }

    private void visit(MessageSpec message, StructSpec struct, Versions scope) {
        for (FieldSpec f : struct.fields()) {
            String nested = f.type().structName();
            Versions effective = f.versions().intersect(scope);
            if (nested != null && !effective.isEmpty()) {
                scopes.merge(nested, effective, Versions::hull);
                visit(message, message.structs().get(nested), effective);
            }
        }
    }

    /** The scope of the struct called {@code name}; empty for a struct no field can hold. */
    public Versions of(String name) {
        return scopes.getOrDefault(name, Versions.NONE);
    }
}
