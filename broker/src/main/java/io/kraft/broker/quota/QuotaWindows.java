package io.kraft.broker.quota;

import java.util.Map;

/**
 * How quota rates are measured, with Kafka's keys: {@code quota.window.num} samples (11) of
 * {@code quota.window.size.seconds} each (1).
 */
public record QuotaWindows(int samples, long windowMs) {
    public static final String NUM = "quota.window.num";
    public static final String SIZE_SECONDS = "quota.window.size.seconds";
    public static final QuotaWindows DEFAULT = new QuotaWindows(11, 1000);

    public QuotaWindows {
        if (samples < 1) {
            throw new IllegalArgumentException(NUM + " must be at least 1, not " + samples);
        }
        if (windowMs < 1) {
            throw new IllegalArgumentException(SIZE_SECONDS + " must be at least 1");
        }
    }

    public static QuotaWindows fromProperties(Map<String, String> properties) {
        return new QuotaWindows(intValue(properties, NUM, DEFAULT.samples),
                intValue(properties, SIZE_SECONDS, (int) (DEFAULT.windowMs / 1000)) * 1000L);
    }

    private static int intValue(Map<String, String> properties, String key, int fallback) {
        String text = properties.get(key);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, not '" + text + "'");
        }
    }
}
