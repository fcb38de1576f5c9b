package io.kraft.raft.file;

import io.kraft.raft.Crc32c;
import io.kraft.raft.VoterSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Optional;

/**
 * The voter set a dynamic quorum starts from (KIP-853's bootstrap checkpoint, kraft.version 1), written by
 * {@code kraft-cli format --standalone | --initial-controllers | --no-initial-controllers} into the metadata log
 * directory: magic, CRC32C of the payload, then the {@link VoterSet} encoding. An empty set marks a controller
 * formatted to be added later. No file means the static {@code controller.quorum.voters} (kraft.version 0).
 */
public final class BootstrapVotersFile {
    public static final String FILE_NAME = "bootstrap.voters";
    private static final byte[] MAGIC = {'K', 'V', 'S', '1'};

    private BootstrapVotersFile() {
    }

    public static Path path(Path metadataLogDir) {
        return metadataLogDir.resolve(FILE_NAME);
    }

    /** Writes the set durably (a temporary file, fsynced, renamed into place). */
    public static void write(Path metadataLogDir, VoterSet voters) throws IOException {
        byte[] payload = voters.encode();
        ByteBuffer file = ByteBuffer.allocate(MAGIC.length + 4 + payload.length);
        file.put(MAGIC).putInt(Crc32c.of(payload)).put(payload);
        Path target = path(metadataLogDir);
        Path temporary = target.resolveSibling(FILE_NAME + ".tmp");
        Files.write(temporary, file.array());
        try (var channel = java.nio.channels.FileChannel.open(temporary, java.nio.file.StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * The bootstrap set, or empty when the directory has none (a static quorum).
     *
     * @throws UncheckedIOException naming the file when it cannot be read or fails its checks
     */
    public static Optional<VoterSet> read(Path metadataLogDir) {
        Path file = path(metadataLogDir);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length < MAGIC.length + 4 || !Arrays.equals(Arrays.copyOf(bytes, MAGIC.length), MAGIC)) {
                throw new IOException("not a bootstrap voters file");
            }
            int crc = ByteBuffer.wrap(bytes, MAGIC.length, 4).getInt();
            byte[] payload = Arrays.copyOfRange(bytes, MAGIC.length + 4, bytes.length);
            if (Crc32c.of(payload) != crc) {
                throw new IOException("checksum mismatch");
            }
            return Optional.of(VoterSet.decode(payload));
        } catch (IOException | IllegalArgumentException e) {
            throw new UncheckedIOException(new IOException("cannot read " + file + ": " + e.getMessage(), e));
        }
    }
}
