package io.kraft.cli.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Columns as wide as their widest cell, one space apart, no trailing spaces. */
class TextTableTest {
    @Test
    void alignsColumnsToTheirWidestCell() {
        TextTable table = new TextTable("GROUP", "TOPIC", "LAG")
                .add(List.of("g", "a-long-topic", "7"))
                .add(List.of("group-two", "t", "-"));
        assertEquals(List.of(
                "GROUP     TOPIC        LAG",
                "g         a-long-topic 7",
                "group-two t            -"), table.lines());
    }

    @Test
    void anEmptyTableIsItsHeader() {
        TextTable table = new TextTable("GROUP", "STATE");
        assertEquals(true, table.isEmpty());
        assertEquals(List.of("GROUP STATE"), table.lines());
    }

    @Test
    void aRowMustFillEveryColumn() {
        assertThrows(IllegalArgumentException.class, () -> new TextTable("A", "B").add(List.of("only one")));
    }
}
