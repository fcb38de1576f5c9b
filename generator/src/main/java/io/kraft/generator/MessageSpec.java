package io.kraft.generator;

import java.util.Map;

/**
 * One spec file: a request or response body of one API. {@code structs} holds every nested struct
 * of the message by name, in the order they were first declared.
 */
public record MessageSpec(String file, short apiKey, String type, String name, Versions validVersions,
                          Versions flexibleVersions, StructSpec body, Map<String, StructSpec> structs) {

    public boolean isRequest() {
        return type.equals("request");
    }
}
