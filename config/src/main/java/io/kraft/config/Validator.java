package io.kraft.config;

import java.util.List;

/**
 * A rule a parsed, non-null configuration value must satisfy. Absent values (a nullable default)
 * are never validated. The expectation text completes "expected an int ..." in error messages.
 */
public interface Validator {

    /** Whether the value, already in its type's Java representation, is acceptable. */
    boolean accepts(Object value);

    /** What an acceptable value looks like, e.g. "at least 14"; follows the type's noun in messages. */
    String expectation();

    /** Whether this rule can judge values of the type; checked when a key is defined. */
    boolean supports(ConfigType type);

    /** This rule and then the other one. */
    default Validator and(Validator other) {
        return allOf(this, other);
    }

    /** A number no smaller than min. */
    static Validator atLeast(Number min) {
        return new Range(min, null);
    }

    /** A number from min to max, both inclusive. */
    static Validator between(Number min, Number max) {
        return new Range(min, max);
    }

    /** A string equal to one of the allowed values, case-sensitively (as Kafka's enumerated settings). */
    static Validator in(String... allowed) {
        return new ValidString(List.of(allowed), false);
    }

    /** A string equal to one of the allowed values ignoring case; the value keeps the spelling given. */
    static Validator inIgnoringCase(String... allowed) {
        return new ValidString(List.of(allowed), true);
    }

    /** A list whose every item is one of the allowed values, case-sensitively; may be empty. */
    static Validator itemsIn(String... allowed) {
        return new ValidList(List.of(allowed));
    }

    /** A string that is not empty after trimming. */
    static Validator nonEmptyString() {
        return NonEmpty.STRING;
    }

    /** A list with at least one item. */
    static Validator nonEmptyList() {
        return NonEmpty.LIST;
    }

    /** Every one of the rules, checked in order. */
    static Validator allOf(Validator... validators) {
        return new AllOf(List.of(validators));
    }
}
