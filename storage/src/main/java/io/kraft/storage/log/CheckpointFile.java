package io.kraft.storage.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
        Path temp = file.resolveSibling(file.getFileName() + LogFileNames.TEMP_SUFFIX);
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                if (durable) {
                    channel.force(true);
                }
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            if (durable) {
                fsyncDirectory(file.toAbsolutePath().getParent());
            }
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

    /** Makes a rename or file creation in {@code dir} durable. */
    public static void fsyncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Some platforms cannot open directories; the rename itself has happened.
            if (!System.getProperty("os.name", "").toLowerCase().contains("win")) {
                throw new LogStorageException("cannot fsync directory " + dir, e);
            }
        }
    }
}
