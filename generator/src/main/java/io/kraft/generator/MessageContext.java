package io.kraft.generator;

import io.kraft.generator.FieldType.Primitive;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the emitters of one message class share: the spec, each struct's scope, which structs hold
 * records, and the version conditions (Java expressions, or "true"/"false" when already decided) they emit.
 */
final class MessageContext {
    private final MessageSpec spec;
    private final StructScopes scopes;
    private final Set<String> holdsRecords = new HashSet<>();

    MessageContext(MessageSpec spec) {
        this.spec = spec;
        this.scopes = StructScopes.of(spec);
        findRecordHolders();
    }

    MessageSpec spec() {
        return spec;
    }

    /** The versions in which {@code s} can be read or written. */
    Versions scope(StructSpec s) {
        return scopes.of(s.name());
    }

    /** Whether the struct called {@code name} holds a records field, itself or in a struct it holds. */
    boolean holdsRecords(String name) {
        return holdsRecords.contains(name);
    }

    private void findRecordHolders() {
        boolean changed = true;
        List<StructSpec> all = new ArrayList<>(spec.structs().values());
        all.add(spec.body());
        while (changed) {
            changed = false;
            for (StructSpec s : all) {
                if (holdsRecords.contains(s.name())) {
                    continue;
                }
                for (FieldSpec f : s.fields()) {
                    String nested = f.type().structName();
                    if (f.type() == Primitive.RECORDS || nested != null && holdsRecords.contains(nested)) {
                        holdsRecords.add(s.name());
                        changed = true;
                        break;
                    }
                }
            }
        }
    }

    /**
     * A Java expression: whether {@code version} is in {@code range}, given that it is in {@code known}.
     * Gives "true" or "false" when that is already decided.
     */
    static String inRange(Versions range, Versions known) {
        Versions both = range.intersect(known);
        if (both.isEmpty()) {
            return "false";
        }
        if (both.equals(known)) {
            return "true";
        }
        List<String> parts = new ArrayList<>(2);
        if (both.lowest() > known.lowest()) {
            parts.add("version >= " + both.lowest());
        }
        if (both.highest() < known.highest()) {
            parts.add("version <= " + both.highest());
        }
        return String.join(" && ", parts);
    }

    /** Whether the compact (flexible) encodings apply, given the version is in {@code known}: "true", "false" or "flexible". */
    String compactCond(Versions known) {
        Versions both = spec.flexibleVersions().intersect(known);
        if (both.isEmpty()) {
            return "false";
        }
        return both.equals(known) ? "true" : "flexible";
    }

    /** Whether a struct with scope {@code scope} ends in tagged fields: "true", "false" or "flexible". */
    String flexibleCond(Versions scope) {
        return compactCond(scope);
    }

    /** Versions in which the field is a regular (not tagged) field. */
    static Versions regularVersions(FieldSpec f) {
        if (!f.isTagged()) {
            return f.versions();
        }
        int lastRegular = f.taggedVersions().lowest() - 1;
        return lastRegular < f.versions().lowest() ? Versions.NONE : Versions.of(f.versions().lowest(), lastRegular);
    }

    /** Fields sent as tagged fields in some version of {@code flexibleScope}, in tag order (the order they are written). */
    static List<FieldSpec> taggedIn(StructSpec s, Versions flexibleScope) {
        List<FieldSpec> tagged = new ArrayList<>();
        for (FieldSpec f : s.fields()) {
            if (f.isTagged() && !f.taggedVersions().intersect(flexibleScope).isEmpty()) {
                tagged.add(f);
            }
        }
        tagged.sort(Comparator.comparingInt(FieldSpec::tag));
        return tagged;
    }

    /** Whether a tagged field is sent: it is known in the version and does not hold its default (KIP-482). */
    static String taggedCond(FieldSpec f, Versions known, Versions flexibleScope) {
        String cond = inRange(known, flexibleScope);
        String notDefault = "!(" + FieldCode.isDefaultExpr(f) + ")";
        return cond.equals("true") ? notDefault : cond + " && " + notDefault;
    }
}
