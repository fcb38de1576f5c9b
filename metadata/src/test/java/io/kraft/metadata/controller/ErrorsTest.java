package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ErrorsTest {
    @Test
    void codesAndNamesAreKafkas() {
        for (Errors error : Errors.values()) {
            org.apache.kafka.common.protocol.Errors kafka = org.apache.kafka.common.protocol.Errors.forCode(error.code());
            assertEquals(error.name(), kafka.name(), "code " + error.code());
        }
    }
}
