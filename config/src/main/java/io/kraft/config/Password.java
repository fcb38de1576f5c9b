package io.kraft.config;

import java.util.Objects;

/** A secret configuration value whose text is never shown by {@link #toString()}. */
public final class Password {
    /** What is shown in place of a secret. */
    public static final String HIDDEN = "[hidden]";

    private final String value;

    public Password(String value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    /** The secret text; callers must not log it. */
    public String value() {
        return value;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Password password && password.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return HIDDEN;
    }
}
