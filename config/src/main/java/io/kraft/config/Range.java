package io.kraft.config;

import java.math.BigDecimal;
import java.util.Objects;

/** A numeric range with an inclusive lower bound and an optional inclusive upper bound. */
record Range(Number min, Number max) implements Validator {
    Range {
        Objects.requireNonNull(min, "min");
        if (max != null && compare(min, max) > 0) {
            throw new IllegalArgumentException("Range minimum " + min + " is above its maximum " + max);
        }
    }

    @Override
    public boolean accepts(Object value) {
        Number number = (Number) value;
        return compare(number, min) >= 0 && (max == null || compare(number, max) <= 0);
    }

    @Override
    public String expectation() {
        return max == null ? "at least " + min : "between " + min + " and " + max;
    }

    @Override
    public boolean supports(ConfigType type) {
        return type.isNumeric();
    }

    // Exact comparison across Integer, Long and Double without the rounding of a long-to-double cast.
    private static int compare(Number left, Number right) {
        return decimal(left).compareTo(decimal(right));
    }

    private static BigDecimal decimal(Number number) {
        if (number instanceof Double || number instanceof Float) {
            return BigDecimal.valueOf(number.doubleValue());
        }
        return BigDecimal.valueOf(number.longValue());
    }
}
