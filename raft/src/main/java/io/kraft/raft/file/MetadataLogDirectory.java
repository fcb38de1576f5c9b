package io.kraft.raft.file;

import io.kraft.storage.io.DurableFiles;
import io.kraft.storage.log.TopicPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a node keeps its metadata log, in Kafka's layout: the directory {@value #NAME} inside metadata.log.dir (the
 * first of log.dirs when that is unset), holding the log's segments, its snapshots, the quorum state and the state
 * stores of whatever replays it; {@code meta.properties} and {@code .lock} stay in metadata.log.dir itself.
 *
 * <p>Earlier versions kept those files in metadata.log.dir itself, beside the partition directories when it was a log
 * directory too. {@link #prepare} moves them so that a crash at any point loses nothing: one rename at a time into the
 * sibling {@value #MIGRATING}, which the next start finishes filling, then that directory into place with one atomic
 * rename, so {@value #NAME} only ever appears whole.
 */
public final class MetadataLogDirectory {
    /** Kafka's name: partition 0 of the topic {@code __cluster_metadata}, which log managers never treat as theirs. */
    public static final String NAME = TopicPartition.CLUSTER_METADATA.directoryName();
    /** The directory an interrupted move left: not a partition name, so a log manager skips it too. */
    static final String MIGRATING = NAME + ".migrating";
    private static final Logger LOG = LoggerFactory.getLogger(MetadataLogDirectory.class);

    /** The file operations a move is made of; tests replace them to stop a move part way, as a crash would. */
    interface FileOperations {
        /** Renames atomically; the target must not exist. */
        void move(Path source, Path target) throws IOException;

        void fsyncDirectory(Path directory) throws IOException;
    }

    static final FileOperations DURABLE = new FileOperations() {
        @Override
        public void move(Path source, Path target) throws IOException {
            if (Files.exists(target)) {
                // Moving over it could lose either copy: only a person can tell which one to keep.
                throw new IOException("cannot move " + source + " to " + target + ": the target exists");
            }
            DurableFiles.atomicMove(source, target);
        }

        @Override
        public void fsyncDirectory(Path directory) throws IOException {
            DurableFiles.fsyncDirectory(directory);
        }
    };

    /** Where a metadata log's files are, and where its node's meta.properties and .lock are. */
    public record Location(Path logDirectory, Path nodeDirectory) {
    }

    private MetadataLogDirectory() {
    }

    /** {@code <metadataLogDir>/__cluster_metadata-0}. */
    public static Path in(Path metadataLogDir) {
        return metadataLogDir.resolve(NAME);
    }

    /**
     * The metadata log directory of {@code metadataLogDir}, created if needed, after moving into it what an earlier
     * version kept in metadataLogDir itself (see the class comment); a move logs one line.
     *
     * @param stateStores names of the directories that the log's state machines keep beside it (e.g. the controller's
     *                    RocksDB store), moved with it
     * @throws MetadataLogLayoutException with one line if metadataLogDir holds both layouts
     * @throws UncheckedIOException  if a file cannot be listed or moved (what was moved stays moved; the next start
     *                               carries on)
     */
    public static Path prepare(Path metadataLogDir, Collection<String> stateStores) {
        return prepare(metadataLogDir, stateStores, DURABLE);
    }

    static Path prepare(Path metadataLogDir, Collection<String> stateStores, FileOperations files) {
        Path target = in(metadataLogDir);
        Path staging = metadataLogDir.resolve(MIGRATING);
        try {
            Files.createDirectories(metadataLogDir);
            List<Path> earlier = earlierLayout(metadataLogDir, stateStores);
            boolean interrupted = Files.isDirectory(staging);
            if (Files.isDirectory(target)) {
                if (!earlier.isEmpty() || interrupted) {
                    List<String> names = new ArrayList<>();
                    earlier.forEach(path -> names.add(path.getFileName().toString()));
                    if (interrupted) {
                        names.add(MIGRATING);
                    }
                    throw new MetadataLogLayoutException(metadataLogDir + " holds both the metadata log directory "
                            + NAME + " and metadata files outside it (" + String.join(", ", names) + "): keep only "
                            + "one of them");
                }
                return target;
            }
            if (earlier.isEmpty() && !interrupted) {
                Files.createDirectories(target);
                files.fsyncDirectory(metadataLogDir);
                return target;
            }
            Files.createDirectories(staging);
            for (Path entry : earlier) {
                files.move(entry, staging.resolve(entry.getFileName()));
            }
            files.fsyncDirectory(staging);
            files.fsyncDirectory(metadataLogDir);
            files.move(staging, target);
            files.fsyncDirectory(metadataLogDir);
            LOG.info("Moved the metadata log of {} into {} (Kafka's layout){}; the earlier layout has no "
                    + "clean-shutdown marker, so the log is checked as after a crash", metadataLogDir, target,
                    interrupted ? ", finishing a move a crash had interrupted" : "");
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move the metadata log of " + metadataLogDir + " into " + target
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * Where the metadata log is for a directory an offline tool was given: {@value #NAME} itself, the metadata.log.dir
     * holding it, or (laid out by an earlier version, or holding no log at all) the directory itself. Reads nothing
     * but the directory's listing and changes nothing.
     */
    public static Location locate(Path given) {
        Path fileName = given.toAbsolutePath().normalize().getFileName();
        if (fileName != null && fileName.toString().equals(NAME) && Files.isDirectory(given)) {
            Path parent = given.toAbsolutePath().normalize().getParent();
            return new Location(given, parent);
        }
        if (Files.isDirectory(in(given))) {
            return new Location(in(given), given);
        }
        return new Location(given, given);
    }

    /** The entries of the layout before {@value #NAME}: the log's files and the named state stores. */
    private static List<Path> earlierLayout(Path dir, Collection<String> stateStores) throws IOException {
        Set<String> names = new HashSet<>(stateStores);
        for (String file : List.of(FileRaftLog.LOG_START_FILE, FileQuorumStateStore.FILE_NAME)) {
            names.add(file);
            names.add(file + DurableFiles.TEMP_SUFFIX); // left by a crash mid-replace; whoever opens it decides
        }
        names.add(FileSnapshotStore.DIRECTORY_NAME);
        try (Stream<Path> listing = Files.list(dir)) {
            return listing.filter(path -> {
                String name = path.getFileName().toString();
                return names.contains(name) || (name.endsWith(FileRaftLog.SUFFIX) && Files.isRegularFile(path));
            }).sorted().toList();
        }
    }
}
