package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A client's string in a log line can neither end the line nor carry control bytes, and is cut when long. */
class LogTextTest {
    @Test
    void escapesControlCharactersAndCutsLongText() {
        assertEquals("consumer-1", LogText.of("consumer-1"));
        assertEquals("a\\u000a[main] INFO forged\\u0000", LogText.of("a\n[main] INFO forged\0"));
        assertEquals("\\ud800x\\u007f", LogText.of("\ud800x\u007f"));
        assertEquals("null", LogText.of(null));
        String longText = "x".repeat(1000);
        assertEquals("x".repeat(256) + "...(1000 chars)", LogText.of(longText));
    }
}
