package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Version ranges are written as in the protocol guide. */
class VersionsTest {

    @Test
    void versionRangesParseLikeTheProtocolGuide() {
        assertEquals(Versions.of(3, Short.MAX_VALUE), Versions.parse("3+"));
        assertEquals(Versions.of(0, 12), Versions.parse("0-12"));
        assertEquals(Versions.of(5, 5), Versions.parse("5"));
        assertTrue(Versions.parse("none").isEmpty());
        assertEquals("3+", Versions.parse("3+").toString());
        assertEquals(Versions.of(4, 12), Versions.parse("0-12").intersect(Versions.parse("4+")));
        assertThrows(IllegalArgumentException.class, () -> Versions.parse("x"));
    }
}
