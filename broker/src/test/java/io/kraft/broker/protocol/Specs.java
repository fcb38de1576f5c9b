package io.kraft.broker.protocol;

import io.kraft.generator.FieldSpec;
import io.kraft.generator.FieldType;
import io.kraft.generator.MessageSpec;
import io.kraft.generator.SpecException;
import io.kraft.generator.SpecParser;
import io.kraft.generator.StructSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The spec files of {@code src/main/messages} as the generator's parser reads them, and what a field is at a
 * version: present, nullable, tagged. The tests walk this model (never the generated code's own idea of
 * itself) to compare with Kafka's schemas and to fill and inspect the generated classes.
 */
final class Specs {
    /** The specs beside the broker's sources: from the broker module, or from a module next to it (server's fuzzing). */
    static final Path DIR = Files.isDirectory(Path.of("src/main/messages")) ? Path.of("src/main/messages")
            : Path.of("../broker/src/main/messages");
    private static final Map<String, MessageSpec> BY_NAME = load();

    private Specs() {
    }

    private static Map<String, MessageSpec> load() {
        SpecParser parser = new SpecParser();
        Map<String, MessageSpec> specs = new TreeMap<>();
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                MessageSpec spec = parser.parse(file.getFileName().toString(), Files.readString(file));
                specs.put(spec.name(), spec);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SpecException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return Collections.unmodifiableMap(specs);
    }

    /** Every spec file, by message name. */
    static Map<String, MessageSpec> all() {
        return BY_NAME;
    }

    static MessageSpec named(String name) {
        MessageSpec spec = BY_NAME.get(name);
        if (spec == null) {
            throw new IllegalArgumentException("No spec file " + name + ".json in " + DIR.toAbsolutePath());
        }
        return spec;
    }

    static boolean exists(FieldSpec f, short version) {
        return f.versions().contains(version);
    }

    static boolean nullable(FieldSpec f, short version) {
        return f.nullableVersions().contains(version);
    }

    static boolean tagged(FieldSpec f, short version) {
        return f.isTagged() && f.taggedVersions().contains(version);
    }

    /** The struct a field holds, itself or as array elements; null for primitives and arrays of them. */
    static StructSpec structOf(MessageSpec message, FieldSpec f) {
        String name = f.type().structName();
        return name == null ? null : message.structs().get(name);
    }

    static boolean isRecords(FieldSpec f) {
        return f.type() == FieldType.Primitive.RECORDS;
    }

    /** Whether the message holds a records field anywhere. */
    static boolean hasRecords(MessageSpec message) {
        return hasRecords(message, message.body());
    }

    private static boolean hasRecords(MessageSpec message, StructSpec struct) {
        for (FieldSpec f : struct.fields()) {
            StructSpec nested = structOf(message, f);
            if (isRecords(f) || nested != null && hasRecords(message, nested)) {
                return true;
            }
        }
        return false;
    }

    /** Kafka's schema field name for one of ours: {@code throttleTimeMs} is {@code throttle_time_ms}. */
    static String snakeCase(String camel) {
        StringBuilder sb = new StringBuilder(camel.length() + 8);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0) {
                    sb.append('_');
                }
                sb.append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
