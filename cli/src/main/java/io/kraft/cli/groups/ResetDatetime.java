package io.kraft.cli.groups;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;

/**
 * The {@code --to-datetime} value: {@code yyyy-MM-dd'T'HH:mm:ss.SSS}, then optionally {@code Z} or an offset
 * {@code +hh:mm}/{@code -hh:mm}; without one the time is local to the given zone, as Kafka's tool reads it.
 */
public final class ResetDatetime {
    /** What a valid value looks like, for error messages and the option's help. */
    public static final String FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSS with an optional Z or +hh:mm";

    private static final DateTimeFormatter PARSER = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd'T'HH:mm:ss.SSS")
            .optionalStart().appendOffset("+HH:MM", "Z").optionalEnd()
            .toFormatter()
            .withResolverStyle(ResolverStyle.STRICT);

    private ResetDatetime() {
    }

    /**
     * The instant the text names, in epoch milliseconds.
     *
     * @param localZone the zone of a value written without an offset
     * @throws GroupOptionsException naming the value and the expected format
     */
    public static long parseEpochMs(String text, ZoneId localZone) {
        TemporalAccessor parsed;
        try {
            parsed = PARSER.parse(text);
        } catch (DateTimeParseException e) {
            throw new GroupOptionsException("Invalid --to-datetime '" + text + "': expected " + FORMAT);
        }
        LocalDateTime local = LocalDateTime.from(parsed);
        if (parsed.isSupported(ChronoField.OFFSET_SECONDS)) {
            return local.toInstant(ZoneOffset.ofTotalSeconds(parsed.get(ChronoField.OFFSET_SECONDS))).toEpochMilli();
        }
        return local.atZone(localZone).toInstant().toEpochMilli();
    }
}
