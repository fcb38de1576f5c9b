package io.kraft.cli.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The --to-datetime grammar: milliseconds required, Z or ±hh:mm optional, local time otherwise. */
class ResetDatetimeTest {
    private static final long NOON_UTC_MS = Instant.parse("2026-03-01T12:00:00.250Z").toEpochMilli();

    @Test
    void readsUtcAndOffsets() {
        assertEquals(NOON_UTC_MS, ResetDatetime.parseEpochMs("2026-03-01T12:00:00.250Z", ZoneOffset.UTC));
        assertEquals(NOON_UTC_MS, ResetDatetime.parseEpochMs("2026-03-01T14:00:00.250+02:00", ZoneOffset.UTC));
        assertEquals(NOON_UTC_MS, ResetDatetime.parseEpochMs("2026-03-01T06:30:00.250-05:30", ZoneOffset.UTC));
    }

    @Test
    void aValueWithoutOffsetIsLocalTime() {
        assertEquals(NOON_UTC_MS, ResetDatetime.parseEpochMs("2026-03-01T13:00:00.250", ZoneId.of("Europe/Paris")));
        assertEquals(NOON_UTC_MS, ResetDatetime.parseEpochMs("2026-03-01T12:00:00.250", ZoneOffset.UTC));
    }

    @Test
    void malformedOrImpossibleValuesAreRefusedWithTheFormat() {
        for (String bad : new String[] {"2026-03-01T12:00:00", "2026-03-01 12:00:00.000", "2026-02-30T12:00:00.000",
                "2026-03-01T25:00:00.000Z", "2026-03-01T12:00:00.000+2", "yesterday", ""}) {
            GroupOptionsException failure = assertThrows(GroupOptionsException.class,
                    () -> ResetDatetime.parseEpochMs(bad, ZoneOffset.UTC), bad);
            assertTrue(failure.getMessage().startsWith("Invalid --to-datetime '" + bad + "'"), failure.getMessage());
            assertTrue(failure.getMessage().contains(ResetDatetime.FORMAT), failure.getMessage());
        }
    }
}
