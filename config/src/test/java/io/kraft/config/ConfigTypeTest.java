package io.kraft.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigTypeTest {

    @Test
    void booleanIgnoresCaseAndSurroundingSpace() {
        assertEquals(true, ConfigType.BOOLEAN.parse(" TRUE "));
        assertEquals(false, ConfigType.BOOLEAN.parse("False"));
        assertEquals(true, ConfigType.BOOLEAN.parse(Boolean.TRUE));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.BOOLEAN.parse("yes"));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.BOOLEAN.parse(1));
    }

    @Test
    void stringIsTrimmed() {
        assertEquals("lz4", ConfigType.STRING.parse("  lz4\t"));
        assertEquals("", ConfigType.STRING.parse(""));
    }

    @Test
    void intAcceptsTextAndIntegralValuesThatFit() {
        assertEquals(14, ConfigType.INT.parse(" 14 "));
        assertEquals(-1, ConfigType.INT.parse(-1L));
        assertEquals(Integer.MAX_VALUE, ConfigType.INT.parse("2147483647"));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.INT.parse("2147483648"));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.INT.parse(1L << 40));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.INT.parse("abc"));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.INT.parse("1.5"));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.INT.parse(1.0));
    }

    @Test
    void shortRejectsValuesOutOfItsRange() {
        assertEquals((short) 3, ConfigType.SHORT.parse("3"));
        assertEquals((short) -32768, ConfigType.SHORT.parse(-32768));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.SHORT.parse("32768"));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.SHORT.parse(40_000));
    }

    @Test
    void longAcceptsTheFullRange() {
        assertEquals(Long.MAX_VALUE, ConfigType.LONG.parse("9223372036854775807"));
        assertEquals(300_000L, ConfigType.LONG.parse(300_000));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.LONG.parse("9223372036854775808"));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.LONG.parse(""));
    }

    @Test
    void doubleMustBeFinite() {
        assertEquals(0.5, ConfigType.DOUBLE.parse("0.5"));
        assertEquals(1.0, ConfigType.DOUBLE.parse(1));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.DOUBLE.parse("NaN"));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.DOUBLE.parse("Infinity"));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.DOUBLE.parse("half"));
    }

    @Test
    void listSplitsOnCommasAndTrimsItems() {
        assertEquals(List.of("compact", "delete"), ConfigType.LIST.parse(" compact , delete "));
        assertEquals(List.of("a"), ConfigType.LIST.parse("a"));
        assertEquals(List.of(), ConfigType.LIST.parse("  "));
        assertEquals(List.of("x", "y"), ConfigType.LIST.parse(List.of(" x", "y ")));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.LIST.parse("a,,b"));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.LIST.parse("a,"));
        assertThrows(IllegalArgumentException.class, () -> ConfigType.LIST.parse(List.of("a,b")));
        assertThrows(UnsupportedOperationException.class,
                () -> ((List<?>) ConfigType.LIST.parse("a,b")).clear());
    }

    @Test
    void passwordIsWrappedAndNeverDisplayed() {
        Object parsed = ConfigType.PASSWORD.parse(" s3cret ");
        assertEquals(new Password("s3cret"), parsed);
        assertEquals("s3cret", ((Password) parsed).value());
        assertEquals("[hidden]", parsed.toString());
        assertEquals("[hidden]", ConfigType.PASSWORD.display(parsed));
        assertEquals("[hidden]", ConfigType.PASSWORD.displayRaw("s3cret"));
    }

    @Test
    void displayWritesValuesAsConfigurationText() {
        assertEquals("compact,delete", ConfigType.LIST.display(List.of("compact", "delete")));
        assertEquals("0.5", ConfigType.DOUBLE.display(0.5));
        assertEquals("1", ConfigType.DOUBLE.display(1.0));
        assertEquals("100000000000", ConfigType.DOUBLE.display(1e11));
        assertEquals("null", ConfigType.LONG.display(null));
    }

    @Test
    void nullIsNotAValueOfAnyType() {
        for (ConfigType type : ConfigType.values()) {
            assertThrows(IllegalArgumentException.class, () -> type.parse(null), type.name());
        }
    }
}
