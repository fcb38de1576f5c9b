package io.kraft.config;

/** How much an operator should care about a setting; used to order documentation. */
public enum Importance {
    HIGH,
    MEDIUM,
    LOW
}
