package io.kraft.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What specs mean: every rule's one-line error, naming the file and the field. */
class SpecValidatorTest {

    @Test
    void aSoundPairHasNoProblems() {
        assertEquals(List.of(), problems(Specs.pair("Ok", "0-3", "2+", f("a", "int32", "0+")
                + ", {\"name\": \"b\", \"type\": \"string\", \"versions\": \"1+\", \"nullableVersions\": \"1+\", \"default\": null}"
                + ", {\"name\": \"c\", \"type\": \"Leader\", \"versions\": \"2+\", \"tag\": 0, \"taggedVersions\": \"2+\", \"fields\": ["
                + f("leaderId", "int32", "0+") + "]}")));
    }

    @Test
    void versionRangesMustFitTheMessageAndTheEnclosingStruct() {
        assertProblem(request("0-3", "none", f("a", "int32", "5+")), "OkRequest.json: field a: versions 5+ lie outside the versions 0-3");
        assertProblem(request("0-3", "none", f("a", "int32", "1-7")), "OkRequest.json: field a: versions 1-7 end after the last valid version 3");
        assertProblem(request("0-3", "none", "{\"name\": \"s\", \"type\": \"S\", \"versions\": \"0-1\", \"fields\": ["
                + f("x", "int8", "2+") + "]}"), "OkRequest.json: field s.x: versions 2+ lie outside the versions 0-1 in which its struct exists");
        // a field may start before the first valid version: "0+" in a message valid from 3
        assertEquals(List.of(), problems(request("3-5", "none", f("a", "int32", "0+"))));
        assertProblem(Specs.pair("Ok", "0+", "none", ""), "OkRequest.json: validVersions 0+ must be a closed range");
        assertProblem(Specs.pair("Ok", "0-2", "1-2", ""), "OkRequest.json: flexibleVersions 1-2 must be \"none\" or open-ended");
    }

    @Test
    void tagsAreUniquePerStructAndOnlyInFlexibleVersions() {
        assertProblem(request("0-3", "2+", tagged("a", "int32", "2+", 0) + ", " + tagged("b", "int32", "2+", 0)),
                "OkRequest.json: field b: tag 0 is already used by field a");
        assertProblem(request("0-3", "2+", tagged("a", "int32", "1+", 0)),
                "OkRequest.json: field a: tagged in versions 1-3 but the message is flexible only in 2+");
        assertProblem(request("0-3", "none", tagged("a", "int32", "0+", 0)),
                "OkRequest.json: field a: tagged in versions 0-3 but the message is flexible only in none");
        assertProblem(request("0-3", "2+", "{\"name\": \"a\", \"type\": \"int32\", \"versions\": \"2+\", \"tag\": 0, \"taggedVersions\": \"2\"}"),
                "OkRequest.json: field a: taggedVersions 2 must be the field's versions 2+ from some version on");
        // the same tag in another struct is fine
        assertEquals(List.of(), problems(request("0-3", "2+", tagged("a", "int32", "2+", 0) + ", {\"name\": \"s\", \"type\": \"S\", "
                + "\"versions\": \"2+\", \"fields\": [" + tagged("b", "int32", "0+", 0) + "]}")));
    }

    @Test
    void onlyNullableTypesAreNullable() {
        assertProblem(request("0-3", "none", "{\"name\": \"a\", \"type\": \"int32\", \"versions\": \"0+\", \"nullableVersions\": \"0+\"}"),
                "OkRequest.json: field a: type int32 cannot be nullable");
        assertProblem(request("0-3", "none", "{\"name\": \"a\", \"type\": \"uuid\", \"versions\": \"0+\", \"nullableVersions\": \"0+\"}"),
                "OkRequest.json: field a: type uuid cannot be nullable");
        assertProblem(request("0-3", "none", "{\"name\": \"a\", \"type\": \"string\", \"versions\": \"0-1\", \"nullableVersions\": \"2+\"}"),
                "OkRequest.json: field a: nullableVersions 2+ never overlap the versions 0-1");
    }

    @Test
    void defaultsMatchTheFieldType() {
        assertProblem(request("0-3", "none", withDefault("a", "int8", "200")), "OkRequest.json: field a: default 200: int8 field needs a default in [-128, 127]");
        assertProblem(request("0-3", "none", withDefault("a", "int32", "\"7\"")), "OkRequest.json: field a: default \"7\": int32 field needs an integer default");
        assertProblem(request("0-3", "none", withDefault("a", "int64", "1.5")), "OkRequest.json: field a: default 1.5: int64 field needs an integer default");
        assertProblem(request("0-3", "none", withDefault("a", "bool", "1")), "OkRequest.json: field a: default 1: bool field needs a boolean default");
        assertProblem(request("0-3", "none", withDefault("a", "string", "5")), "OkRequest.json: field a: default 5: string field needs a string default");
        assertProblem(request("0-3", "none", withDefault("a", "[]int32", "\"x\"")), "OkRequest.json: field a: default \"x\": []int32 field can only default to null");
        assertProblem(request("0-3", "none", withDefault("a", "string", "null")),
                "OkRequest.json: field a: defaults to null but is not nullable in all of its versions 0-3");
        assertProblem(request("0-3", "none", f("a", "records", "0+")),
                "OkRequest.json: field a: defaults to null (as records do) but is not nullable in all of its versions 0-3");
        assertEquals(List.of(), problems(request("0-3", "none", withDefault("a", "uint32", "4294967295")
                + ", " + withDefault("b", "float64", "0.5") + ", " + withDefault("c", "string", "\"x\""))));
    }

    @Test
    void namesAreJavaIdentifiersAndUnique() {
        assertProblem(request("0", "none", f("Topic", "int32", "0+")), "OkRequest.json: field Topic: name must be a lowerCamelCase Java identifier");
        assertProblem(request("0", "none", f("snake_case", "int32", "0+")), "OkRequest.json: field snake_case: name must be a lowerCamelCase");
        assertProblem(request("0", "none", f("class", "int32", "0+")), "OkRequest.json: field class: name must be a lowerCamelCase Java identifier and not a keyword");
        assertProblem(request("0", "none", f("size", "int32", "0+")), "OkRequest.json: field size: name clashes with a method every generated message has");
        assertProblem(request("0", "none", f("a", "int32", "0+") + ", " + f("a", "int64", "0+")),
                "OkRequest.json: field a: accessor a() is taken by another field of OkRequest");
        assertProblem(request("0", "none", "{\"name\": \"records\", \"type\": \"records\", \"versions\": \"0+\", \"nullableVersions\": \"0+\"}, "
                + f("externalRecords", "int32", "0+")), "OkRequest.json: field externalRecords: accessor externalRecords() is taken");
        assertProblem(request("0", "none", "{\"name\": \"s\", \"type\": \"List\", \"versions\": \"0+\", \"fields\": []}"),
                "OkRequest.json: struct name List clashes with a class name the generated code uses");
    }

    @Test
    void structsResolveAndDoNotHoldThemselves() {
        assertProblem(request("0", "none", f("s", "Missing", "0+")), "OkRequest.json: field s: struct type Missing is defined nowhere");
        Map<String, String> cycle = Specs.pair("Ok", "0", "none", "");
        cycle.put("OkRequest.json", Specs.message(90, "request", "OkRequest", "0", "none", f("s", "Node", "0+"),
                "{\"name\": \"Node\", \"fields\": [" + f("next", "[]Node", "0+") + "]}"));
        assertProblem(cycle, "OkRequest.json: struct Node holds itself");
        Map<String, String> unused = Specs.pair("Ok", "0", "none", "");
        unused.put("OkRequest.json", Specs.message(90, "request", "OkRequest", "0", "none", "",
                "{\"name\": \"Lonely\", \"fields\": []}"));
        assertProblem(unused, "OkRequest.json: struct Lonely is not held by any field in any valid version");
    }

    @Test
    void messagesComeInRequestResponsePairsThatAgree() {
        Map<String, String> specs = new LinkedHashMap<>();
        specs.put("OkRequest.json", Specs.message(90, "request", "OkRequest", "0-3", "none", ""));
        assertProblem(specs, "OkRequest.json: API key 90 has no response spec");
        specs.put("OkResponse.json", Specs.message(90, "response", "OkResponse", "0-4", "none", ""));
        assertProblem(specs, "OkResponse.json: versions 0-4 (flexible none) differ from OkRequest.json's 0-3 (flexible none)");
        specs.put("OkResponse.json", Specs.message(90, "response", "OkRequest2", "0-3", "none", ""));
        assertProblem(specs, "OkResponse.json: message OkRequest2 must be in a file called OkRequest2.json");
        assertProblem(specs, "OkResponse.json: a response's name ends with Response");
        specs.put("OkResponse.json", Specs.message(90, "reply", "OkResponse", "0-3", "none", ""));
        assertProblem(specs, "OkResponse.json: type must be \"request\", \"response\" or \"data\", not \"reply\"");
    }

    @Test
    void dataSpecsStandAloneUnderTheSameRules() {
        Map<String, String> specs = Specs.pair("Ok", "0-3", "none", "");
        specs.put("OkValue.json", Specs.data("OkValue", "0-3", "2+", f("a", "int64", "0+")
                + ", {\"name\": \"b\", \"type\": \"string\", \"versions\": \"1+\", \"nullableVersions\": \"1+\", \"default\": null}"
                + ", " + tagged("c", "int32", "2+", 0)));
        assertEquals(List.of(), problems(specs), "no pair, no API key, and no clash with the API key of OkRequest");
        Map<String, String> alone = new LinkedHashMap<>();
        alone.put("OkValue.json", Specs.data("OkValue", "2", "none", f("a", "int64", "0+")));
        assertEquals(List.of(), problems(alone), "a field may start before the first valid version, as in messages");

        assertProblem(Map.of("OkRequest.json", Specs.data("OkRequest", "0", "none", "")),
                "OkRequest.json: a data spec's name does not end with Request or Response");
        assertProblem(Map.of("OkValue.json", Specs.data("OkValue", "0+", "none", "")),
                "OkValue.json: validVersions 0+ must be a closed range");
        assertProblem(Map.of("OkValue.json", Specs.data("OkValue", "0-3", "none", tagged("a", "int32", "0+", 0))),
                "OkValue.json: field a: tagged in versions 0-3 but the message is flexible only in none");
        assertProblem(Map.of("OkValue.json", Specs.data("OkValue", "0-3", "none", f("a", "int32", "1-7"))),
                "OkValue.json: field a: versions 1-7 end after the last valid version 3");
        assertProblem(Map.of("Message.json", Specs.data("Message", "0", "none", "")),
                "Message.json: name Message is not usable as a Java class name");
    }

    @Test
    void everyProblemIsReportedAtOnceOnePerLine() {
        Map<String, String> specs = Specs.pair("Ok", "0-3", "none", f("a", "int32", "9+") + ", " + f("b", "bogus_type", "0+"));
        specs.put("Broken.json", "{");
        GeneratorException e = assertThrows(GeneratorException.class, () -> MessageGenerator.generate(specs, "p"));
        assertEquals(3, e.problems().size(), e.getMessage());
        for (String problem : e.problems()) {
            assertFalse(problem.contains("\n"), problem);
            assertTrue(problem.matches("[A-Za-z]+\\.json: .*"), problem);
        }
    }

    // ---- helpers -------------------------------------------------------------------------------------

    private static String f(String name, String type, String versions) {
        return "{\"name\": \"" + name + "\", \"type\": \"" + type + "\", \"versions\": \"" + versions + "\"}";
    }

    private static String tagged(String name, String type, String versions, int tag) {
        return "{\"name\": \"" + name + "\", \"type\": \"" + type + "\", \"versions\": \"" + versions + "\", \"tag\": " + tag
                + ", \"taggedVersions\": \"" + versions + "\"}";
    }

    private static String withDefault(String name, String type, String json) {
        return "{\"name\": \"" + name + "\", \"type\": \"" + type + "\", \"versions\": \"0+\", \"default\": " + json + "}";
    }

    private static Map<String, String> request(String valid, String flexible, String fields) {
        return Specs.pair("Ok", valid, flexible, fields);
    }

    private static List<String> problems(Map<String, String> specs) {
        try {
            MessageGenerator.generate(specs, "p");
            return List.of();
        } catch (GeneratorException e) {
            return e.problems();
        }
    }

    private static void assertProblem(Map<String, String> specs, String expectedStart) {
        List<String> problems = problems(specs);
        assertTrue(problems.stream().anyMatch(p -> p.startsWith(expectedStart)),
                () -> "expected a problem starting with '" + expectedStart + "' but got " + problems);
    }
}
