package io.kraft.cli.groups;

import java.util.ArrayList;
import java.util.List;

/**
 * Left-aligned columns separated by one space, each as wide as its widest cell (header included), the way the
 * Kafka tools print their tables; the last column is not padded so lines carry no trailing spaces.
 */
public final class TextTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(String... header) {
        this.header = List.of(header);
    }

    /** @throws IllegalArgumentException if the row does not have one cell per column */
    public TextTable add(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException("row of " + cells.size() + " cells for " + header.size() + " columns");
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The header line, then one line per row in the order added. */
    public List<String> lines() {
        int[] widths = new int[header.size()];
        List<List<String>> all = new ArrayList<>(rows.size() + 1);
        all.add(header);
        all.addAll(rows);
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        List<String> lines = new ArrayList<>(all.size());
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                line.append(cell);
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - cell.length() + 1));
                }
            }
            lines.add(line.toString());
        }
        return lines;
    }
}
