package io.kraft.raft.file;

import io.kraft.raft.CorruptSnapshotException;
import io.kraft.raft.Crc32c;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.SnapshotStore;
import io.kraft.storage.io.DurableFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Snapshots as directories of files under {@code <metadata.log.dir>/snapshots/<endOffset>-<epoch>/} (for metadata, a
 * RocksDB checkpoint), each with a {@value #MANIFEST} listing every file's name, size and CRC32C. A snapshot is
 * written into a temporary directory, fsynced and renamed into place, so a crash leaves it whole or absent;
 * opening the store keeps only snapshots whose files match their manifest.
 *
 * <p>The <em>transfer form</em> sent to lagging members is the manifest (length-prefixed) followed by the files'
 * bytes in manifest order. A receiver appends chunks to {@code incoming/<id>.part} (so a transfer resumes from
 * its size, even across restarts; chunks are not fsynced, since install checks every file against the manifest),
 * then unpacks and verifies it against the manifest before the fsyncs and the rename.
 */
public final class FileSnapshotStore implements SnapshotStore {
    /** The store's directory inside the metadata log directory. */
    static final String DIRECTORY_NAME = "snapshots";
    static final String MANIFEST = "MANIFEST";
    private static final String TEMP_SUFFIX = ".tmp";
    private static final int KEEP_SNAPSHOTS = 2;
    private static final int MAX_MANIFEST_BYTES = 1024 * 1024;

    /** Writes a snapshot's files into a directory that does not exist yet (as a RocksDB checkpoint requires). */
    @FunctionalInterface
    public interface SnapshotWriter {
        void writeTo(Path directory) throws IOException;
    }

    /** One file of a snapshot as its manifest lists it. */
    record FileEntry(String name, long sizeBytes, int crc32c) {
    }

    private final Path root;
    private final Path incoming;
    private final ConcurrentSkipListSet<SnapshotId> valid = new ConcurrentSkipListSet<>();
    private final Map<SnapshotId, byte[]> headers = new ConcurrentHashMap<>();

    private FileSnapshotStore(Path root) {
        this.root = root;
        this.incoming = root.resolve("incoming");
    }

    /** Opens (creating if needed) the store in {@code <logDir>/snapshots}, dropping partial or corrupt snapshots. */
    public static FileSnapshotStore open(Path logDir) {
        FileSnapshotStore store = new FileSnapshotStore(logDir.resolve(DIRECTORY_NAME));
        try {
            Files.createDirectories(store.incoming);
            try (Stream<Path> listing = Files.list(store.root)) {
                for (Path path : listing.toList()) {
                    String name = path.getFileName().toString();
                    if (name.endsWith(TEMP_SUFFIX)) {
                        deleteRecursively(path); // a save or install a crash interrupted
                    } else if (!path.equals(store.incoming) && Files.isDirectory(path)) {
                        SnapshotId id = SnapshotId.parse(name);
                        try {
                            verify(path, readManifest(path));
                            store.valid.add(id);
                        } catch (CorruptSnapshotException e) {
                            deleteRecursively(path);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open snapshot store in " + store.root, e);
        }
        return store;
    }

    /** The directory holding a stored snapshot's files: what the state machine loads. */
    public Path directory(SnapshotId id) {
        requireStored(id);
        return root.resolve(id.toString());
    }

    /**
     * Stores a snapshot the state machine writes through {@code writer}: into a temporary directory, then manifest,
     * fsync and an atomic rename. Report it to Raft afterwards ({@code snapshotCreated}).
     */
    public void save(SnapshotId id, SnapshotWriter writer) {
        Path temp = root.resolve(id + TEMP_SUFFIX);
        try {
            deleteRecursively(temp);
            writer.writeTo(temp);
            List<FileEntry> files = new ArrayList<>();
            for (Path file : listFiles(temp)) {
                DurableFiles.fsyncFile(file);
                files.add(new FileEntry(file.getFileName().toString(), Files.size(file), crcOf(file)));
            }
            DurableFiles.writeAndFsync(temp.resolve(MANIFEST), manifestBytes(files));
            publish(temp, id);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save snapshot " + id + " in " + root, e);
        }
    }

    @Override
    public Optional<SnapshotId> latest() {
        return valid.isEmpty() ? Optional.empty() : Optional.of(valid.last());
    }

    @Override
    public boolean contains(SnapshotId id) {
        return valid.contains(id);
    }

    @Override
    public long sizeBytes(SnapshotId id) {
        requireStored(id);
        long size = header(id).length;
        for (FileEntry file : readManifestUnchecked(id)) {
            size += file.sizeBytes();
        }
        return size;
    }

    @Override
    public byte[] read(SnapshotId id, long position, int maxBytes) {
        requireStored(id);
        byte[] header = header(id);
        long size = sizeBytes(id);
        if (position < 0 || position > size) {
            throw new IllegalArgumentException("position " + position + " is outside snapshot " + id + " of " + size
                    + " bytes");
        }
        ByteBuffer out = ByteBuffer.allocate((int) Math.min(maxBytes, size - position));
        long segmentStart = 0;
        try {
            if (position < header.length) {
                out.put(header, (int) position, (int) Math.min(out.remaining(), header.length - position));
            }
            segmentStart = header.length;
            for (FileEntry file : readManifestUnchecked(id)) {
                long segmentEnd = segmentStart + file.sizeBytes();
                long from = position + out.position();
                if (out.hasRemaining() && from < segmentEnd && from >= segmentStart) {
                    try (FileChannel channel = FileChannel.open(root.resolve(id.toString()).resolve(file.name()),
                            StandardOpenOption.READ)) {
                        ByteBuffer slice = out.slice(out.position(),
                                (int) Math.min(out.remaining(), segmentEnd - from));
                        long filePosition = from - segmentStart;
                        while (slice.hasRemaining()) {
                            int read = channel.read(slice, filePosition + slice.position());
                            if (read < 0) {
                                throw new IOException("snapshot file " + file.name() + " of " + id + " is shorter "
                                        + "than its manifest says");
                            }
                        }
                        out.position(out.position() + slice.capacity());
                    }
                }
                segmentStart = segmentEnd;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read snapshot " + id + " at " + position, e);
        }
        return out.array();
    }

    @Override
    public long receivedBytes(SnapshotId id) {
        try {
            Path part = partFile(id);
            return Files.exists(part) ? Files.size(part) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read incoming snapshot " + id, e);
        }
    }

    @Override
    public void receive(SnapshotId id, long position, byte[] data, int crc32c) {
        int actual = Crc32c.of(data);
        if (actual != crc32c) {
            throw new CorruptSnapshotException(String.format("chunk of snapshot %s at position %d (%d bytes) has "
                    + "CRC32C %08x but carries %08x: rejected", id, position, data.length, actual, crc32c));
        }
        long received = receivedBytes(id);
        if (position != received) {
            throw new IllegalArgumentException("chunk of snapshot " + id + " at position " + position + " but "
                    + received + " bytes were received");
        }
        try (FileChannel channel = FileChannel.open(partFile(id), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(data);
            while (buffer.hasRemaining()) {
                channel.write(buffer, position + buffer.position());
            }
            // No fsync per chunk (at a million partitions, 160 of them took a second): a crash may lose the part
            // file's tail or leave it garbled, and either the transfer resumes from the shorter size or the manifest's
            // CRC32C of every file refuses the result at install, which then fetches the snapshot again.
        } catch (IOException e) {
            throw new UncheckedIOException("cannot store a chunk of incoming snapshot " + id, e);
        }
    }

    @Override
    public void install(SnapshotId id) {
        Path part = partFile(id);
        Path temp = root.resolve(id + TEMP_SUFFIX);
        try {
            deleteRecursively(temp);
            Files.createDirectories(temp);
            try (InputStream in = Files.newInputStream(part)) {
                byte[] lengthBytes = in.readNBytes(4);
                int manifestLength = lengthBytes.length == 4 ? ByteBuffer.wrap(lengthBytes).getInt() : -1;
                if (manifestLength < 0 || manifestLength > MAX_MANIFEST_BYTES) {
                    throw new CorruptSnapshotException("received snapshot " + id + " has no valid manifest");
                }
                byte[] manifest = in.readNBytes(manifestLength);
                List<FileEntry> files = parseManifest(id, manifest);
                for (FileEntry file : files) {
                    Path target = temp.resolve(file.name());
                    try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW,
                            StandardOpenOption.WRITE)) {
                        CRC32C crc = new CRC32C();
                        long remaining = file.sizeBytes();
                        byte[] buffer = new byte[64 * 1024];
                        while (remaining > 0) {
                            int read = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
                            if (read < 0) {
                                throw new CorruptSnapshotException("received snapshot " + id + " ends inside file "
                                        + file.name());
                            }
                            crc.update(buffer, 0, read);
                            ByteBuffer chunk = ByteBuffer.wrap(buffer, 0, read);
                            while (chunk.hasRemaining()) {
                                out.write(chunk);
                            }
                            remaining -= read;
                        }
                        if ((int) crc.getValue() != file.crc32c()) {
                            throw new CorruptSnapshotException("file " + file.name() + " of received snapshot " + id
                                    + " does not match the CRC32C in its manifest");
                        }
                        out.force(true);
                    }
                }
                if (in.read() >= 0) {
                    throw new CorruptSnapshotException("received snapshot " + id + " has bytes past its last file");
                }
                DurableFiles.writeAndFsync(temp.resolve(MANIFEST), manifest);
            }
            publish(temp, id); // also removes the part file, now installed
        } catch (CorruptSnapshotException e) {
            discard(part, temp);
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install snapshot " + id + " in " + root, e);
        }
    }

    // ------------------------------------------------------------ helpers

    /** Renames a complete temporary directory into place and keeps only the newest few snapshots. */
    private void publish(Path temp, SnapshotId id) throws IOException {
        DurableFiles.fsyncDirectory(temp);
        Path target = root.resolve(id.toString());
        deleteRecursively(target);
        DurableFiles.atomicMove(temp, target);
        DurableFiles.fsyncDirectory(root);
        valid.add(id);
        while (valid.size() > KEEP_SNAPSHOTS) {
            SnapshotId oldest = valid.pollFirst();
            headers.remove(oldest);
            deleteRecursively(root.resolve(oldest.toString()));
        }
        try (Stream<Path> parts = Files.list(incoming)) {
            for (Path part : parts.toList()) {
                String name = part.getFileName().toString().replace(".part", "");
                if (SnapshotId.parse(name).compareTo(valid.last()) <= 0) {
                    Files.deleteIfExists(part); // a transfer that can no longer matter
                }
            }
        }
    }

    private static void discard(Path part, Path temp) {
        try {
            Files.deleteIfExists(part);
            deleteRecursively(temp);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot discard a corrupt incoming snapshot at " + part, e);
        }
    }

    private Path partFile(SnapshotId id) {
        return incoming.resolve(id + ".part");
    }

    private void requireStored(SnapshotId id) {
        if (!valid.contains(id)) {
            throw new IllegalArgumentException("no snapshot " + id + " in " + root);
        }
    }

    private byte[] header(SnapshotId id) {
        return headers.computeIfAbsent(id, key -> {
            try {
                byte[] manifest = Files.readAllBytes(root.resolve(key.toString()).resolve(MANIFEST));
                return ByteBuffer.allocate(4 + manifest.length).putInt(manifest.length).put(manifest).array();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the manifest of snapshot " + key, e);
            }
        });
    }

    private List<FileEntry> readManifestUnchecked(SnapshotId id) {
        byte[] header = header(id);
        return parseManifest(id, java.util.Arrays.copyOfRange(header, 4, header.length));
    }

    static List<FileEntry> readManifest(Path directory) throws IOException {
        Path manifest = directory.resolve(MANIFEST);
        if (!Files.exists(manifest)) {
            throw new CorruptSnapshotException("snapshot " + directory + " has no " + MANIFEST);
        }
        return parseManifest(SnapshotId.parse(directory.getFileName().toString()), Files.readAllBytes(manifest));
    }

    /** One line per file: name, size and CRC32C (hex), separated by single spaces; names hold no spaces. */
    private static byte[] manifestBytes(List<FileEntry> files) {
        StringBuilder text = new StringBuilder();
        for (FileEntry file : files) {
            if (file.name().contains(" ") || file.name().contains("\n") || file.name().equals(MANIFEST)) {
                throw new IllegalArgumentException("snapshot file name '" + file.name() + "' is not allowed");
            }
            text.append(file.name()).append(' ').append(file.sizeBytes()).append(' ')
                    .append(Integer.toHexString(file.crc32c())).append('\n');
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static List<FileEntry> parseManifest(SnapshotId id, byte[] manifest) {
        List<FileEntry> files = new ArrayList<>();
        for (String line : new String(manifest, StandardCharsets.UTF_8).split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split(" ");
            try {
                String name = parts[0];
                if (parts.length != 3 || name.contains("/") || name.contains("\\") || name.equals("..")
                        || name.equals(".") || name.equals(MANIFEST)) {
                    throw new IllegalArgumentException(line);
                }
                files.add(new FileEntry(name, Long.parseLong(parts[1]), Integer.parseUnsignedInt(parts[2], 16)));
            } catch (RuntimeException e) {
                throw new CorruptSnapshotException("manifest of snapshot " + id + " has an invalid line '" + line
                        + "'");
            }
        }
        return files;
    }

    static void verify(Path directory, List<FileEntry> files) throws IOException {
        for (FileEntry file : files) {
            Path path = directory.resolve(file.name());
            if (!Files.isRegularFile(path) || Files.size(path) != file.sizeBytes() || crcOf(path) != file.crc32c()) {
                throw new CorruptSnapshotException("file " + file.name() + " of snapshot " + directory
                        + " does not match its manifest");
            }
        }
    }

    private static List<Path> listFiles(Path directory) throws IOException {
        try (Stream<Path> listing = Files.list(directory)) {
            List<Path> files = listing.sorted().toList();
            for (Path file : files) {
                if (!Files.isRegularFile(file)) {
                    throw new IOException("a snapshot holds only regular files, but " + file + " is not one");
                }
            }
            return files;
        }
    }

    private static int crcOf(Path file) throws IOException {
        CRC32C crc = new CRC32C();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[64 * 1024];
            int read;
            while ((read = in.read(buffer)) >= 0) {
                crc.update(buffer, 0, read);
            }
        }
        return (int) crc.getValue();
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
