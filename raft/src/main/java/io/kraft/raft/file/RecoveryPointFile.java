package io.kraft.raft.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;
import java.util.zip.CRC32C;

/**
 * The file {@value #NAME} of a Raft log directory, which says how far the log was fsynced: 20 digits of offset, a
 * space, 8 hex digits of their CRC32C, a newline, rewritten in place. A torn or garbage file reads as empty.
 */
final class RecoveryPointFile implements AutoCloseable {
    static final String NAME = "log-recovery-point";
    private static final int BYTES = 30;

    private final Path file;
    private FileChannel channel;

    RecoveryPointFile(Path directory) {
        this.file = directory.resolve(NAME);
    }

    Path path() {
        return file;
    }

    /** The offset on disk; empty if there is no file or it cannot be read as one. */
    OptionalLong read() throws IOException {
        return Files.exists(file) ? parse(Files.readAllBytes(file)) : OptionalLong.empty();
    }

    /**
     * Writes {@code offset}, fsynced when {@code durable} (the caller fsyncs the directory when this created the file).
     *
     * @return whether this created the file
     */
    boolean write(long offset, boolean durable) throws IOException {
        boolean created = false;
        if (channel == null) {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            created = true;
        }
        String digits = String.format("%020d", offset);
        CRC32C crc = new CRC32C();
        crc.update(digits.getBytes(StandardCharsets.US_ASCII));
        ByteBuffer text = ByteBuffer.wrap((digits + " " + String.format("%08x", crc.getValue()) + "\n")
                .getBytes(StandardCharsets.US_ASCII));
        long written = 0;
        while (text.hasRemaining()) {
            written += channel.write(text, written);
        }
        if (durable) {
            channel.force(false);
        }
        return created;
    }

    /** The offset a recovery point file holds, or empty if it is torn or garbage. */
    static OptionalLong parse(byte[] content) {
        if (content.length != BYTES || content[20] != ' ' || content[29] != '\n') {
            return OptionalLong.empty();
        }
        try {
            long offset = Long.parseLong(new String(content, 0, 20, StandardCharsets.US_ASCII));
            long stored = Long.parseLong(new String(content, 21, 8, StandardCharsets.US_ASCII), 16);
            CRC32C crc = new CRC32C();
            crc.update(content, 0, 20);
            return crc.getValue() == stored && offset >= 0 ? OptionalLong.of(offset) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** Fsyncs and closes the file if this wrote it. */
    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.force(false);
            channel.close();
        }
    }
}
