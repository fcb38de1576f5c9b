package io.kraft.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The value type of a configuration key: how its text is parsed and how its value is shown. */
public enum ConfigType {
    BOOLEAN("a boolean") {
        @Override
        Object parseText(String text) {
            if (text.equalsIgnoreCase("true")) {
                return Boolean.TRUE;
            }
            if (text.equalsIgnoreCase("false")) {
                return Boolean.FALSE;
            }
            throw new IllegalArgumentException("not a boolean: " + text);
        }

        @Override
        Object coerceTyped(Object value) {
            return value instanceof Boolean ? value : null;
        }
    },
    STRING("a string") {
        @Override
        Object parseText(String text) {
            return text;
        }

        @Override
        Object coerceTyped(Object value) {
            return null;
        }
    },
    INT("an int") {
        @Override
        Object parseText(String text) {
            return Integer.parseInt(text);
        }

        @Override
        Object coerceTyped(Object value) {
            Long integral = integral(value);
            return integral != null && integral == integral.intValue() ? Integer.valueOf(integral.intValue()) : null;
        }
    },
    SHORT("a short") {
        @Override
        Object parseText(String text) {
            return Short.parseShort(text);
        }

        @Override
        Object coerceTyped(Object value) {
            Long integral = integral(value);
            return integral != null && integral == integral.shortValue() ? Short.valueOf(integral.shortValue()) : null;
        }
    },
    LONG("a long") {
        @Override
        Object parseText(String text) {
            return Long.parseLong(text);
        }

        @Override
        Object coerceTyped(Object value) {
            return integral(value);
        }
    },
    DOUBLE("a double") {
        @Override
        Object parseText(String text) {
            return finite(Double.parseDouble(text));
        }

        @Override
        Object coerceTyped(Object value) {
            return value instanceof Number number ? finite(number.doubleValue()) : null;
        }

        @Override
        String display(Object value) {
            // BigDecimal avoids exponent notation, so a shown value can be pasted back into a file.
            return value == null ? "null" : BigDecimal.valueOf((Double) value).stripTrailingZeros().toPlainString();
        }
    },
    /** Comma-separated items, each trimmed; the empty text is the empty list. */
    LIST("a comma-separated list") {
        @Override
        Object parseText(String text) {
            if (text.isEmpty()) {
                return List.of();
            }
            List<String> items = new ArrayList<>();
            for (String item : text.split(",", -1)) {
                String trimmed = item.trim();
                if (trimmed.isEmpty()) {
                    throw new IllegalArgumentException("empty list item in: " + text);
                }
                items.add(trimmed);
            }
            return Collections.unmodifiableList(items);
        }

        @Override
        Object coerceTyped(Object value) {
            if (!(value instanceof List<?> list)) {
                return null;
            }
            for (Object item : list) {
                if (!(item instanceof String text) || text.isBlank() || text.contains(",")) {
                    return null;
                }
            }
            return list.stream().map(item -> ((String) item).trim()).toList();
        }

        @Override
        String display(Object value) {
            if (value == null) {
                return "null";
            }
            @SuppressWarnings("unchecked")
            List<String> items = (List<String>) value;
            return String.join(",", items);
        }
    },
    /** A secret: held as a {@link Password} and never shown, not even in error messages. */
    PASSWORD("a password") {
        @Override
        Object parseText(String text) {
            return new Password(text);
        }

        @Override
        Object coerceTyped(Object value) {
            return value instanceof Password ? value : null;
        }

        @Override
        String display(Object value) {
            return value == null ? "null" : Password.HIDDEN;
        }
    };

    private final String noun;

    ConfigType(String noun) {
        this.noun = noun;
    }

    /** The noun used in error messages, e.g. "an int". */
    public String noun() {
        return noun;
    }

    /** Whether values of this type are numbers that range validators can compare. */
    public boolean isNumeric() {
        return this == INT || this == SHORT || this == LONG || this == DOUBLE;
    }

    /**
     * Converts text or an already typed Java value into this type's Java representation
     * (Boolean, String, Integer, Short, Long, Double, unmodifiable List of String, Password).
     * Text is trimmed first, as Kafka does.
     *
     * @throws IllegalArgumentException if the value cannot be represented in this type
     */
    public Object parse(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("null is not " + noun);
        }
        if (value instanceof String text) {
            return parseText(text.trim());
        }
        Object typed = coerceTyped(value);
        if (typed == null) {
            throw new IllegalArgumentException(value.getClass().getSimpleName() + " " + value + " is not " + noun);
        }
        return typed;
    }

    /** Shows a parsed value as configuration text; passwords are shown as {@value Password#HIDDEN}. */
    String display(Object value) {
        return String.valueOf(value);
    }

    /** Shows a raw, possibly unparsable value of this type; passwords stay hidden. */
    String displayRaw(Object raw) {
        return this == PASSWORD && raw != null ? Password.HIDDEN : String.valueOf(raw);
    }

    abstract Object parseText(String text);

    /** Returns the value in this type's representation, or null if it is not convertible. */
    abstract Object coerceTyped(Object value);

    private static Long integral(Object value) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        return null;
    }

    private static Double finite(double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("not a finite double: " + value);
        }
        return value;
    }
}
