package io.kraft.storage.log;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A per-log-directory map of partition to offset, such as {@code recovery-point-offset-checkpoint} or
 * {@code log-start-offset-checkpoint}: version 0, a count, then {@code topic partition offset} lines.
 */
public final class OffsetCheckpointFile {
    public static final int VERSION = 0;
    private final CheckpointFile checkpoint;

    public OffsetCheckpointFile(Path file) {
        this.checkpoint = new CheckpointFile(file, VERSION);
    }

    public Path file() {
        return checkpoint.file();
    }

    public void write(Map<TopicPartition, Long> offsets) {
        Map<String, Long> sorted = new TreeMap<>();
        offsets.forEach((tp, offset) -> sorted.put(tp.topic() + " " + tp.partition(), offset));
        List<String> lines = new ArrayList<>(sorted.size());
        sorted.forEach((key, offset) -> lines.add(key + " " + offset));
        checkpoint.write(lines);
    }

    /** The stored offsets; empty when the file does not exist. */
    public Map<TopicPartition, Long> read() {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        for (String line : checkpoint.read()) {
            String[] parts = line.split("\\s+");
            if (parts.length != 3) {
                throw new CorruptCheckpointException("checkpoint " + checkpoint.file() + " line '" + line
                        + "' is not 'topic partition offset'");
            }
            try {
                offsets.put(new TopicPartition(parts[0], Integer.parseInt(parts[1])), Long.parseLong(parts[2]));
            } catch (IllegalArgumentException e) {
                throw new CorruptCheckpointException("checkpoint " + checkpoint.file() + " line '" + line
                        + "' is not 'topic partition offset'");
            }
        }
        return offsets;
    }
}
