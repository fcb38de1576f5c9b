package io.kraft.broker.replica;

import io.kraft.storage.io.DurableFiles;
import io.kraft.storage.log.LogStorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The topic id a partition directory belongs to, in Kafka's {@code partition.metadata} file
 * ({@code version: 0} and {@code topic_id: <url-safe base64>} lines). A directory left by a deleted topic
 * holds another id than a recreated topic of the same name, so its data is never taken for the new topic's.
 */
final class PartitionMetadataFile {
    static final String FILE_NAME = "partition.metadata";
    private static final String VERSION_LINE = "version: 0";
    private static final String TOPIC_ID_PREFIX = "topic_id: ";

    private PartitionMetadataFile() {
    }

    /** The recorded topic id; empty when the file is missing or unreadable (a pre-existing directory). */
    static Optional<UUID> read(Path partitionDir) {
        List<String> lines;
        try {
            lines = Files.readAllLines(partitionDir.resolve(FILE_NAME), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new LogStorageException("cannot read " + partitionDir.resolve(FILE_NAME), e);
        }
        for (String line : lines) {
            if (line.startsWith(TOPIC_ID_PREFIX)) {
                try {
                    return Optional.of(decode(line.substring(TOPIC_ID_PREFIX.length()).trim()));
                } catch (IllegalArgumentException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /** Writes the file atomically and durably (temp file, fsync, rename, fsync of the partition directory). */
    static void write(Path partitionDir, UUID topicId) {
        write(partitionDir, topicId, true);
    }

    /**
     * Writes the file atomically (never a torn file); with {@code durable} false without the two fsyncs, so a power
     * failure may lose it, and the directory then reads as one without a recorded topic id, which its next creation
     * records again. A process crash loses nothing either way: the page cache survives it.
     */
    static void write(Path partitionDir, UUID topicId, boolean durable) {
        Path file = partitionDir.resolve(FILE_NAME);
        byte[] content = (VERSION_LINE + "\n" + TOPIC_ID_PREFIX + encode(topicId) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            DurableFiles.writeAtomically(file, content, durable);
        } catch (IOException e) {
            throw new LogStorageException("cannot write " + file, e);
        }
    }

    static String encode(UUID id) {
        ByteBuffer bytes = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    static UUID decode(String text) {
        byte[] bytes = Base64.getUrlDecoder().decode(text);
        if (bytes.length != 16) {
            throw new IllegalArgumentException("topic id '" + text + "' is not 16 bytes");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new UUID(buffer.getLong(), buffer.getLong());
    }
}
