package io.kraft.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ValidatorTest {

    @Test
    void atLeastIsInclusiveAndComparesAcrossNumberTypes() {
        Validator atLeast14 = Validator.atLeast(14);
        assertTrue(atLeast14.accepts(14));
        assertTrue(atLeast14.accepts(Long.MAX_VALUE));
        assertFalse(atLeast14.accepts(13));
        assertFalse(atLeast14.accepts((short) -1));
        assertTrue(atLeast14.accepts(14.0));
        assertFalse(atLeast14.accepts(13.999));
        assertEquals("at least 14", atLeast14.expectation());
    }

    @Test
    void atLeastDoesNotLoseLongPrecision() {
        Validator nearMax = Validator.atLeast(Long.MAX_VALUE);
        assertFalse(nearMax.accepts(Long.MAX_VALUE - 1), "a double cast would round both to 2^63");
        assertTrue(nearMax.accepts(Long.MAX_VALUE));
    }

    @Test
    void betweenIncludesBothBounds() {
        Validator ratio = Validator.between(0, 1);
        assertTrue(ratio.accepts(0.0));
        assertTrue(ratio.accepts(0.5));
        assertTrue(ratio.accepts(1.0));
        assertFalse(ratio.accepts(-0.01));
        assertFalse(ratio.accepts(1.01));
        assertEquals("between 0 and 1", ratio.expectation());
        assertThrows(IllegalArgumentException.class, () -> Validator.between(2, 1));
    }

    @Test
    void inIsCaseSensitiveLikeKafkasEnumeratedSettings() {
        Validator timestampType = Validator.in("CreateTime", "LogAppendTime");
        assertTrue(timestampType.accepts("CreateTime"));
        assertFalse(timestampType.accepts("createtime"));
        assertEquals("in [CreateTime, LogAppendTime]", timestampType.expectation());
    }

    @Test
    void inIgnoringCaseAcceptsAnySpelling() {
        Validator protocol = Validator.inIgnoringCase("PLAINTEXT", "SSL");
        assertTrue(protocol.accepts("plaintext"));
        assertTrue(protocol.accepts("Ssl"));
        assertFalse(protocol.accepts("SASL_SSL"));
        assertEquals("in [PLAINTEXT, SSL] (case-insensitive)", protocol.expectation());
    }

    @Test
    void itemsInChecksEveryItemCaseSensitively() {
        Validator policies = Validator.itemsIn("compact", "delete");
        assertTrue(policies.accepts(List.of("compact", "delete")));
        assertTrue(policies.accepts(List.of("delete")));
        assertTrue(policies.accepts(List.of()));
        assertFalse(policies.accepts(List.of("delete", "archive")));
        assertFalse(policies.accepts(List.of("Delete")));
        assertEquals("with items in [compact, delete]", policies.expectation());
    }

    @Test
    void nonEmptyRejectsBlankStringsAndEmptyLists() {
        assertTrue(Validator.nonEmptyString().accepts("x"));
        assertFalse(Validator.nonEmptyString().accepts(""));
        assertFalse(Validator.nonEmptyString().accepts("  "));
        assertTrue(Validator.nonEmptyList().accepts(List.of("x")));
        assertFalse(Validator.nonEmptyList().accepts(List.of()));
        assertEquals("that is not empty", Validator.nonEmptyList().expectation());
    }

    @Test
    void compositionNeedsEveryRuleAndDescribesThemAll() {
        Validator policies = Validator.nonEmptyList().and(Validator.itemsIn("compact", "delete"));
        assertTrue(policies.accepts(List.of("compact")));
        assertFalse(policies.accepts(List.of()));
        assertFalse(policies.accepts(List.of("archive")));
        assertEquals("that is not empty and with items in [compact, delete]", policies.expectation());

        Validator port = Validator.allOf(Validator.atLeast(1), Validator.between(0, 65535));
        assertTrue(port.accepts(65535));
        assertFalse(port.accepts(0));
        assertFalse(port.accepts(65536));
    }

    @Test
    void eachValidatorSaysWhichTypesItCanJudge() {
        assertTrue(Validator.atLeast(0).supports(ConfigType.INT));
        assertTrue(Validator.atLeast(0).supports(ConfigType.DOUBLE));
        assertFalse(Validator.atLeast(0).supports(ConfigType.STRING));
        assertTrue(Validator.in("a").supports(ConfigType.STRING));
        assertFalse(Validator.in("a").supports(ConfigType.LIST));
        assertTrue(Validator.itemsIn("a").supports(ConfigType.LIST));
        assertFalse(Validator.nonEmptyString().supports(ConfigType.PASSWORD));
        assertFalse(Validator.atLeast(0).and(Validator.in("a")).supports(ConfigType.INT));
    }
}
