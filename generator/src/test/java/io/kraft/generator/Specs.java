package io.kraft.generator;

import java.util.LinkedHashMap;
import java.util.Map;

/** Small spec files for the generator's tests, built from a few lines of fields. */
final class Specs {
    private Specs() {
    }

    /** A message spec with the given header values and the JSON array body of its fields. */
    static String message(int apiKey, String type, String name, String valid, String flexible, String fields) {
        return message(apiKey, type, name, valid, flexible, fields, null);
    }

    static String message(int apiKey, String type, String name, String valid, String flexible, String fields,
                          String commonStructs) {
        return "{\"apiKey\": " + apiKey + ", \"type\": \"" + type + "\", \"name\": \"" + name + "\", "
                + "\"validVersions\": \"" + valid + "\", \"flexibleVersions\": \"" + flexible + "\", "
                + "\"fields\": [" + fields + "]"
                + (commonStructs == null ? "" : ", \"commonStructs\": [" + commonStructs + "]") + "}";
    }

    /** A data spec (no API key) with the given header values and the JSON array body of its fields. */
    static String data(String name, String valid, String flexible, String fields) {
        return "{\"type\": \"data\", \"name\": \"" + name + "\", \"validVersions\": \"" + valid + "\", "
                + "\"flexibleVersions\": \"" + flexible + "\", \"fields\": [" + fields + "]}";
    }

    /** A request with the given fields and a matching empty response, as file name to content. */
    static Map<String, String> pair(String name, String valid, String flexible, String requestFields) {
        Map<String, String> specs = new LinkedHashMap<>();
        specs.put(name + "Request.json", message(90, "request", name + "Request", valid, flexible, requestFields));
        specs.put(name + "Response.json", message(90, "response", name + "Response", valid, flexible, ""));
        return specs;
    }
}
