package io.kraft.raft.file;

import io.kraft.raft.QuorumState;
import io.kraft.raft.QuorumStateStore;
import io.kraft.storage.io.DurableFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.zip.CRC32C;

/**
 * The {@code quorum-state} file: epoch, vote and leader as a small text file guarded by a CRC, replaced atomically
 * (write a temp file, fsync it, rename over the old one, fsync the directory) so a crash leaves either the old or
 * the new state, never a mix.
 */
public final class FileQuorumStateStore implements QuorumStateStore {
    static final String FILE_NAME = "quorum-state";
    private static final int FORMAT_VERSION = 1;

    private final Path file;

    public FileQuorumStateStore(Path directory) {
        this.file = directory.resolve(FILE_NAME);
    }

    @Override
    public QuorumState read() {
        if (!Files.exists(file)) {
            return QuorumState.INITIAL;
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        int newline = text.lastIndexOf("crc=");
        if (newline < 0) {
            throw new CorruptQuorumStateException(file, "missing crc line");
        }
        String body = text.substring(0, newline);
        long expectedCrc;
        try {
            expectedCrc = Long.parseLong(text.substring(newline + 4).trim());
        } catch (NumberFormatException e) {
            throw new CorruptQuorumStateException(file, "unreadable crc");
        }
        if (crc(body) != expectedCrc) {
            throw new CorruptQuorumStateException(file, "crc mismatch");
        }
        Properties properties = new Properties();
        try {
            properties.load(new java.io.StringReader(body));
            int version = Integer.parseInt(properties.getProperty("version", "-1"));
            if (version != FORMAT_VERSION) {
                throw new CorruptQuorumStateException(file, "unsupported version " + version);
            }
            return new QuorumState(Integer.parseInt(properties.getProperty("epoch")),
                    optionalId(properties.getProperty("votedId")), optionalId(properties.getProperty("leaderId")));
        } catch (IOException | RuntimeException e) {
            if (e instanceof CorruptQuorumStateException corrupt) {
                throw corrupt;
            }
            throw new CorruptQuorumStateException(file, "unreadable fields (" + e.getMessage() + ")");
        }
    }

    @Override
    public void write(QuorumState state) {
        String body = "version=" + FORMAT_VERSION + "\n"
                + "epoch=" + state.epoch() + "\n"
                + "votedId=" + state.votedId().orElse(-1) + "\n"
                + "leaderId=" + state.leaderId().orElse(-1) + "\n";
        byte[] bytes = (body + "crc=" + crc(body) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            DurableFiles.writeAtomically(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static OptionalInt optionalId(String value) {
        int id = Integer.parseInt(value);
        return id < 0 ? OptionalInt.empty() : OptionalInt.of(id);
    }

    private static long crc(String body) {
        CRC32C crc = new CRC32C();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }
}
