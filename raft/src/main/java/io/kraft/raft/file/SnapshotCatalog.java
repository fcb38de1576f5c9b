package io.kraft.raft.file;

import io.kraft.raft.CorruptSnapshotException;
import io.kraft.raft.SnapshotId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The complete snapshots a {@link FileSnapshotStore} directory holds, found and checked against their manifests
 * without changing anything (where {@link FileSnapshotStore#open} deletes partial and corrupt ones): for offline
 * tools on a stopped node.
 */
public final class SnapshotCatalog {
    private final Path root;
    private final TreeMap<SnapshotId, Path> valid;
    private final List<String> skipped;

    private SnapshotCatalog(Path root, TreeMap<SnapshotId, Path> valid, List<String> skipped) {
        this.root = root;
        this.valid = valid;
        this.skipped = List.copyOf(skipped);
    }

    /**
     * Lists the snapshots under {@code <logDir>/snapshots}; a missing snapshots directory means none.
     *
     * @throws UncheckedIOException if the directory cannot be listed or a snapshot file cannot be read
     */
    public static SnapshotCatalog of(Path logDir) {
        Path root = logDir.resolve(FileSnapshotStore.DIRECTORY_NAME);
        TreeMap<SnapshotId, Path> valid = new TreeMap<>();
        List<String> skipped = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> listing = Files.list(root)) {
                for (Path path : listing.sorted().toList()) {
                    String name = path.getFileName().toString();
                    if (!Files.isDirectory(path) || name.equals("incoming") || name.endsWith(".tmp")) {
                        continue; // transfers and saves in progress: never snapshots yet
                    }
                    try {
                        valid.put(verify(path), path);
                    } catch (CorruptSnapshotException | IllegalArgumentException e) {
                        skipped.add(e.getMessage());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list the snapshots in " + root + ": " + e.getMessage(), e);
            }
        }
        return new SnapshotCatalog(root, valid, skipped);
    }

    /**
     * Checks one snapshot directory (named {@code <endOffset>-<epoch>}) against its manifest.
     *
     * @return the snapshot's id, from its name
     * @throws IllegalArgumentException  if the path is not a directory named like a snapshot
     * @throws CorruptSnapshotException  if the manifest is missing or a file does not match it
     * @throws UncheckedIOException      if a file cannot be read
     */
    public static SnapshotId verify(Path snapshotDirectory) {
        if (!Files.isDirectory(snapshotDirectory)) {
            throw new IllegalArgumentException("no snapshot directory at " + snapshotDirectory);
        }
        SnapshotId id;
        try {
            id = SnapshotId.parse(snapshotDirectory.getFileName().toString());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(snapshotDirectory + " is not a snapshot directory: its name is not"
                    + " of the form <endOffset>-<epoch>");
        }
        try {
            FileSnapshotStore.verify(snapshotDirectory, FileSnapshotStore.readManifest(snapshotDirectory));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read snapshot " + snapshotDirectory + ": " + e.getMessage(), e);
        }
        return id;
    }

    /** The newest complete snapshot, if any. */
    public Optional<SnapshotId> latest() {
        return valid.isEmpty() ? Optional.empty() : Optional.of(valid.lastKey());
    }

    /** Every complete snapshot, oldest first. */
    public List<SnapshotId> snapshots() {
        return List.copyOf(valid.keySet());
    }

    /** The directory holding a complete snapshot's files. */
    public Path directory(SnapshotId id) {
        Path path = valid.get(id);
        if (path == null) {
            throw new IllegalArgumentException("no complete snapshot " + id + " in " + root);
        }
        return path;
    }

    /** Why each snapshot directory that is not complete was left out (one line each). */
    public List<String> skipped() {
        return skipped;
    }
}
