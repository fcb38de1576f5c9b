package io.kraft.storage.log;

import io.kraft.storage.io.DurableFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A small text file replaced atomically: a version line, an entry count line, then one line per
 * entry. Writes go to {@code <name>.tmp}, are fsynced, renamed over the file, and the directory is
 * fsynced, so a crash leaves either the old or the new content.
 */
public final class CheckpointFile {
    private final Path file;
    private final int version;

    public CheckpointFile(Path file, int version) {
        this.file = file;
        this.version = version;
    }

    public Path file() {
        return file;
    }

    /** Replaces the file's entries durably. */
    public void write(List<String> entryLines) {
        write(entryLines, true);
    }

    /**
     * Replaces the file's entries; still atomic (rename) without {@code durable}, but a crash may then
     * bring back the previous content. For state that is re-derived on load anyway.
     */
    public void write(List<String> entryLines, boolean durable) {
        StringBuilder text = new StringBuilder();
        text.append(version).append('\n').append(entryLines.size()).append('\n');
        for (String line : entryLines) {
            if (line.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("checkpoint entry must be one line: " + line);
            }
            text.append(line).append('\n');
        }
        try {
            DurableFiles.writeAtomically(file, text.toString().getBytes(StandardCharsets.UTF_8), durable);
        } catch (IOException e) {
            throw new LogStorageException("cannot write checkpoint " + file, e);
        }
    }

    /**
     * The entry lines, or an empty list if the file does not exist.
     *
     * @throws CorruptCheckpointException on a wrong version, a count that disagrees, or garbage
     */
    public List<String> read() {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new LogStorageException("cannot read checkpoint " + file, e);
        }
        if (lines.size() < 2) {
            throw new CorruptCheckpointException("checkpoint " + file + " has " + lines.size()
                    + " lines, needs a version and a count");
        }
        if (!lines.get(0).trim().equals(Integer.toString(version))) {
            throw new CorruptCheckpointException("checkpoint " + file + " has version '" + lines.get(0)
                    + "', expected " + version);
        }
        int count;
        try {
            count = Integer.parseInt(lines.get(1).trim());
        } catch (NumberFormatException e) {
            throw new CorruptCheckpointException("checkpoint " + file + " has entry count '" + lines.get(1)
                    + "', not a number");
        }
        List<String> entries = new ArrayList<>();
        for (int i = 2; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                entries.add(lines.get(i).trim());
            }
        }
        if (entries.size() != count) {
            throw new CorruptCheckpointException("checkpoint " + file + " declares " + count + " entries but holds "
                    + entries.size());
        }
        return entries;
    }
}
