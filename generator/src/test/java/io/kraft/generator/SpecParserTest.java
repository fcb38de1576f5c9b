package io.kraft.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The shape checks of one spec file: what parses into the model, and the one-line errors for what does not. */
class SpecParserTest {
    private final SpecParser parser = new SpecParser();

    @Test
    void parsesFieldsNestedStructsTagsAndDefaults() throws SpecException {
        MessageSpec m = parser.parse("SampleRequest.json", Specs.message(7, "request", "SampleRequest", "0-4", "2+",
                "{\"name\": \"clusterId\", \"type\": \"string\", \"versions\": \"2+\", \"nullableVersions\": \"2+\", "
                        + "\"tag\": 0, \"taggedVersions\": \"2+\", \"default\": null},"
                        + "{\"name\": \"limit\", \"type\": \"int32\", \"versions\": \"0+\", \"default\": -1},"
                        + "{\"name\": \"topics\", \"type\": \"[]Topic\", \"versions\": \"1+\", \"fields\": ["
                        + "  {\"name\": \"name\", \"type\": \"string\", \"versions\": \"0+\"},"
                        + "  {\"name\": \"partitions\", \"type\": \"[]int32\", \"versions\": \"0+\"}]}"));
        assertEquals(7, m.apiKey());
        assertTrue(m.isRequest());
        assertEquals(Versions.of(0, 4), m.validVersions());
        assertEquals(Versions.of(2, Versions.OPEN), m.flexibleVersions());
        FieldSpec clusterId = m.body().fields().get(0);
        assertEquals(0, clusterId.tag());
        assertTrue(clusterId.hasDefault());
        assertNull(clusterId.defaultValue());
        assertTrue(clusterId.defaultsToNull());
        assertEquals(-1L, m.body().fields().get(1).defaultValue());
        FieldSpec topics = m.body().fields().get(2);
        assertEquals(new FieldType.ArrayOf(new FieldType.StructRef("Topic")), topics.type());
        assertEquals("topics.partitions", m.structs().get("Topic").fields().get(1).path());
        assertEquals(new FieldType.ArrayOf(FieldType.Primitive.INT32), m.structs().get("Topic").fields().get(1).type());
        assertFalse(m.body().fields().get(1).isTagged());
    }

    @Test
    void commonStructsAreDeclaredOnceAndReferencedByName() throws SpecException {
        MessageSpec m = parser.parse("SampleResponse.json", Specs.message(7, "response", "SampleResponse", "0", "none",
                "{\"name\": \"a\", \"type\": \"Pair\", \"versions\": \"0+\"}, {\"name\": \"b\", \"type\": \"[]Pair\", \"versions\": \"0+\"}",
                "{\"name\": \"Pair\", \"fields\": [{\"name\": \"x\", \"type\": \"int8\", \"versions\": \"0+\"}]}"));
        assertEquals(1, m.structs().size());
        assertEquals("Pair.x", m.structs().get("Pair").fields().get(0).path());
    }

    @Test
    void dataSpecsHaveNoApiKey() throws SpecException {
        MessageSpec m = parser.parse("SampleValue.json", Specs.data("SampleValue", "0-3", "none",
                "{\"name\": \"offset\", \"type\": \"int64\", \"versions\": \"0+\"}"));
        assertTrue(m.isData());
        assertFalse(m.isRequest() || m.isResponse());
        assertEquals(MessageSpec.NO_API_KEY, m.apiKey());
        assertEquals(Versions.of(0, 3), m.validVersions());
        assertEquals("offset", m.body().fields().get(0).name());
        String withKey = Specs.data("SampleValue", "0", "none", "").replace("{\"type\"", "{\"apiKey\": 3, \"type\"");
        assertError(withKey, "X.json: a data spec is no API's body and has no \"apiKey\"");
        assertError(Specs.data("SampleValue", "0", "none", "").replace("\"validVersions\"", "\"versions\""),
                "X.json: the message has unknown key \"versions\"");
    }

    @Test
    void shapeErrorsAreOneLineNamingFileAndField() {
        assertError("{\"apiKey\": 1,", "X.json: invalid JSON at line 1");
        assertError("[1, 2]", "X.json: the spec must be one JSON object");
        assertError("{\"apiKey\": 1, \"apiKey\": 2}", "X.json: invalid JSON");
        assertError(Specs.message(1, "request", "X", "0", "none", "").replace("\"fields\"", "\"feilds\""),
                "X.json: the message has unknown key \"feilds\"");
        assertError(field("{\"name\": \"a\", \"type\": \"int32\"}"), "X.json: field a: needs a version range \"versions\"");
        assertError(field("{\"name\": \"a\", \"type\": \"int32\", \"versions\": \"0+\", \"nullable\": \"0+\"}"),
                "X.json: field a: unknown key \"nullable\"");
        assertError(field("{\"name\": \"a\", \"type\": \"int33\", \"versions\": \"0+\"}"), "X.json: field a: unknown type 'int33'");
        assertError(field("{\"name\": \"a\", \"type\": \"[][]int32\", \"versions\": \"0+\"}"), "X.json: field a: arrays of arrays");
        assertError(field("{\"name\": \"a\", \"type\": \"int32\", \"versions\": \"3-1\"}"), "X.json: field a: versions: version range '3-1' is empty");
        assertError(field("{\"name\": \"a\", \"type\": \"int32\", \"versions\": \"x+\"}"), "X.json: field a: versions: invalid version range 'x+'");
        assertError(field("{\"name\": \"a\", \"type\": \"int32\", \"versions\": \"0+\", \"tag\": 0}"),
                "X.json: field a: a tagged field needs both \"tag\" and \"taggedVersions\"");
        assertError(field("{\"name\": \"a\", \"type\": \"int32\", \"versions\": \"0+\", \"tag\": -2, \"taggedVersions\": \"0+\"}"),
                "X.json: field a: tag -2 is negative");
        assertError(field("{\"name\": \"a\", \"type\": \"int32\", \"versions\": \"0+\", \"fields\": []}"),
                "X.json: field a: has \"fields\" but its type int32 is not a struct");
        assertError(field("{\"name\": \"a\", \"type\": \"int32\", \"versions\": \"0+\", \"default\": [1]}"),
                "X.json: field a: default must be a number, boolean, string or null");
        assertError(field("{\"name\": \"s\", \"type\": \"[]T\", \"versions\": \"0+\", \"fields\": ["
                        + "{\"name\": \"t\", \"type\": \"T\", \"versions\": \"0+\", \"fields\": []}]}"),
                "X.json: field s: defines struct T a second time");
        assertError(field("{\"type\": \"int32\", \"versions\": \"0+\"}"), "X.json: field ?: needs a string \"name\"");
        assertError("{\"type\": \"request\", \"name\": \"X\"}", "X.json: needs an integer \"apiKey\"");
    }

    private static String field(String json) {
        return Specs.message(1, "request", "X", "0", "none", json);
    }

    private void assertError(String json, String expectedStart) {
        SpecException e = assertThrows(SpecException.class, () -> parser.parse("X.json", json));
        assertTrue(e.getMessage().startsWith(expectedStart), () -> "'" + e.getMessage() + "' should start with '" + expectedStart + "'");
        assertFalse(e.getMessage().contains("\n"), () -> "one line: " + e.getMessage());
    }
}
