package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiMessageFactory;
import io.kraft.generator.FieldSpec;
import io.kraft.generator.FieldType;
import io.kraft.generator.MessageSpec;
import io.kraft.generator.StructSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.protocol.types.ArrayOf;
import org.apache.kafka.common.protocol.types.BoundField;
import org.apache.kafka.common.protocol.types.CompactArrayOf;
import org.apache.kafka.common.protocol.types.Field;
import org.apache.kafka.common.protocol.types.NullableSchema;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.TaggedFields;
import org.apache.kafka.common.protocol.types.Type;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Our spec files, as the generator parses them, say what kafka-clients' schemas say: every API, version, direction, field. */
class SpecConformanceTest {

    @TestFactory
    Stream<DynamicTest> specMatchesKafkasSchemaFieldForField() {
        return ProtocolCase.each(c -> assertEquals(
                String.join("\n", describeKafka(KafkaOracle.schema(c))),
                String.join("\n", describeOurs(c.spec(), c.version())).replace(
                        c.recordsNullableOnlyInOurSpec() ? "COMPACT_NULLABLE_RECORDS" : "\u0000", "COMPACT_RECORDS"),
                c + ": our spec differs from Kafka's schema (names, types, nullability, tags, element types)"));
    }

    /** Data specs that kafka-clients also has (the consumer protocol's layouts) match its schemas too. */
    @TestFactory
    Stream<DynamicTest> dataSpecsKafkaAlsoHasMatchItsSchemas() {
        List<DynamicTest> tests = new ArrayList<>();
        for (MessageSpec spec : Specs.all().values()) {
            Schema[] schemas = spec.isData() ? kafkaDataSchemas(spec.name()) : null;
            if (schemas == null) {
                continue; // e.g. the __consumer_offsets layouts, which live outside kafka-clients
            }
            for (short v = spec.validVersions().lowest(); v <= spec.validVersions().highest(); v++) {
                short version = v;
                tests.add(DynamicTest.dynamicTest(spec.name() + " v" + v, () -> assertEquals(
                        String.join("\n", describeKafka(schemas[version])),
                        String.join("\n", describeOurs(spec, version)),
                        spec.name() + " v" + version + " differs from Kafka's schema")));
            }
        }
        assertTrue(tests.size() >= 8, "ConsumerProtocolSubscription and ConsumerProtocolAssignment v0-3 are compared");
        return tests.stream();
    }

    private static Schema[] kafkaDataSchemas(String name) {
        try {
            return (Schema[]) Class.forName("org.apache.kafka.common.message." + name).getField("SCHEMAS").get(null);
        } catch (ClassNotFoundException e) {
            return null;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void everyApiHasOneRequestAndOneResponseSpecWithItsGeneratedClass() {
        for (ApiKey api : ApiKey.values()) {
            assertTrue(ApiMessageFactory.isKnown(api.id()), api.apiName());
            for (boolean request : new boolean[] {true, false}) {
                MessageSpec spec = Specs.named(api.apiName() + (request ? "Request" : "Response"));
                assertEquals(api.id(), spec.apiKey(), spec.name());
                assertEquals(request, spec.isRequest(), spec.name());
                assertEquals(api.acceptedVersions().lowest(), spec.validVersions().lowest(), spec.name());
                assertEquals(api.acceptedVersions().highest(), spec.validVersions().highest(), spec.name());
                ApiMessage m = request ? ApiMessageFactory.newRequest(api) : ApiMessageFactory.newResponse(api);
                assertEquals(spec.name(), m.getClass().getSimpleName());
                assertEquals(api.id(), m.apiKey(), spec.name());
                assertEquals(api.acceptedVersions().lowest(), m.lowestSupportedVersion(), spec.name());
                assertEquals(api.acceptedVersions().highest(), m.highestSupportedVersion(), spec.name());
            }
        }
        long apiSpecs = Specs.all().values().stream().filter(s -> !s.isData()).count();
        assertEquals(2L * ApiKey.values().length, apiSpecs, "a spec file for an API the broker does not list");
    }

    @Test
    void fieldNamesNormaliseToKafkasSnakeCase() {
        assertEquals("throttle_time_ms", Specs.snakeCase("throttleTimeMs"));
        assertEquals("topic_id", Specs.snakeCase("topicId"));
        assertEquals("name", Specs.snakeCase("name"));
    }

    // ---- descriptions: one line per field, "name:TYPE", nested structs indented, tagged ones as "@tag " ----

    /** Kafka's schema at one version. */
    static List<String> describeKafka(Schema schema) {
        List<String> out = new ArrayList<>();
        describeKafka(schema, "", out);
        return out;
    }

    private static void describeKafka(Schema schema, String indent, List<String> out) {
        for (BoundField f : schema.fields()) {
            if (f.def.type instanceof TaggedFields tagged) {
                out.add(indent + "(tagged fields)");
                for (Map.Entry<Integer, Field> e : tagged.fields().entrySet()) {
                    describeKafka(indent + "@" + e.getKey() + " ", e.getValue().name, e.getValue().type, out);
                }
            } else {
                describeKafka(indent, f.def.name, f.def.type, out);
            }
        }
    }

    private static void describeKafka(String indent, String name, Type t, List<String> out) {
        if (t instanceof Schema s) {
            out.add(indent + name + ":" + (s instanceof NullableSchema ? "NULLABLE_STRUCT" : "STRUCT"));
            describeKafka(s, indent + "  ", out);
        } else if (t instanceof ArrayOf || t instanceof CompactArrayOf) {
            String kind = (t instanceof CompactArrayOf ? "COMPACT_" : "") + (t.isNullable() ? "NULLABLE_" : "") + "ARRAY";
            Type element = t.arrayElementType().orElseThrow();
            if (element instanceof Schema s) {
                out.add(indent + name + ":" + kind + "(STRUCT)");
                describeKafka(s, indent + "  ", out);
            } else {
                out.add(indent + name + ":" + kind + "(" + element + ")");
            }
        } else {
            out.add(indent + name + ":" + t);
        }
    }

    /** Our spec at one version, in the same words. */
    static List<String> describeOurs(MessageSpec message, short version) {
        List<String> out = new ArrayList<>();
        describeOurs(message, message.body(), version, message.flexibleVersions().contains(version), "", out);
        return out;
    }

    private static void describeOurs(MessageSpec m, StructSpec s, short v, boolean flexible, String indent,
                                     List<String> out) {
        for (FieldSpec f : s.fields()) {
            if (Specs.exists(f, v) && !Specs.tagged(f, v)) {
                describeOurs(m, f, v, flexible, indent, out);
            }
        }
        if (flexible) {
            out.add(indent + "(tagged fields)");
            s.fields().stream().filter(f -> Specs.exists(f, v) && Specs.tagged(f, v))
                    .sorted(Comparator.comparingInt(FieldSpec::tag))
                    .forEach(f -> describeOurs(m, f, v, flexible, indent + "@" + f.tag() + " ", out));
        }
    }

    private static void describeOurs(MessageSpec m, FieldSpec f, short v, boolean flexible, String indent,
                                     List<String> out) {
        String name = indent + Specs.snakeCase(f.name()) + ":";
        boolean nullable = Specs.nullable(f, v);
        StructSpec nested = Specs.structOf(m, f);
        if (f.type() instanceof FieldType.ArrayOf array) {
            String kind = (flexible ? "COMPACT_" : "") + (nullable ? "NULLABLE_" : "") + "ARRAY";
            if (nested != null) {
                out.add(name + kind + "(STRUCT)");
                describeOurs(m, nested, v, flexible, indent + "  ", out);
            } else {
                out.add(name + kind + "(" + primitive((FieldType.Primitive) array.element(), flexible, false) + ")");
            }
        } else if (nested != null) {
            out.add(name + (nullable ? "NULLABLE_STRUCT" : "STRUCT"));
            describeOurs(m, nested, v, flexible, indent + "  ", out);
        } else {
            out.add(name + primitive((FieldType.Primitive) f.type(), flexible, nullable));
        }
    }

    private static String primitive(FieldType.Primitive p, boolean flexible, boolean nullable) {
        return switch (p) {
            case BOOL -> "BOOLEAN";
            case STRING, BYTES, RECORDS -> (flexible ? "COMPACT_" : "") + (nullable ? "NULLABLE_" : "") + p.name();
            default -> p.name();
        };
    }
}
