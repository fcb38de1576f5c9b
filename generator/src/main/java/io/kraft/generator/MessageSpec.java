package io.kraft.generator;

import java.util.Map;

/**
 * One spec file: a request or response body of one API, or (type {@code data}) a versioned struct that
 * is no API's body, such as a record layout of an internal topic; a data spec has no API key
 * ({@link #NO_API_KEY}). {@code structs} holds every nested struct of the message by name, in the order
 * they were first declared.
 */
public record MessageSpec(String file, short apiKey, String type, String name, Versions validVersions,
                          Versions flexibleVersions, StructSpec body, Map<String, StructSpec> structs) {
    public static final String REQUEST = "request";
    public static final String RESPONSE = "response";
    public static final String DATA = "data";
    /** The api key of a data spec. */
    public static final short NO_API_KEY = -1;

    public boolean isRequest() {
        return type.equals(REQUEST);
    }

    public boolean isResponse() {
        return type.equals(RESPONSE);
    }

    /** Whether this is a data spec: versioned bytes of our own, not the body of an API. */
    public boolean isData() {
        return type.equals(DATA);
    }
}
