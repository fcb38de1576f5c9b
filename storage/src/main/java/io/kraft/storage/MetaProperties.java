package io.kraft.storage;

import io.kraft.storage.io.DurableFiles;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

/**
 * The identity of one log directory, kept in its {@code meta.properties} (Kafka's KRaft format,
 * version 1): the cluster it belongs to, the node that owns it and the directory's own id (KIP-858).
 * A node refuses to start on a directory that is unformatted or belongs to another cluster or node.
 */
public record MetaProperties(String clusterId, int nodeId, String directoryId) {
    public static final String FILE_NAME = "meta.properties";
    public static final int VERSION = 1;

    static final String VERSION_KEY = "version";
    static final String CLUSTER_ID_KEY = "cluster.id";
    static final String NODE_ID_KEY = "node.id";
    static final String DIRECTORY_ID_KEY = "directory.id";

    private static final int UUID_BYTES = 16;
    private static final int UUID_CHARS = 22;
    private static final SecureRandom RANDOM = new SecureRandom();

    public MetaProperties {
        requireUuid(CLUSTER_ID_KEY, clusterId);
        requireUuid(DIRECTORY_ID_KEY, directoryId);
        if (nodeId < 0) {
            throw new IllegalArgumentException("node.id must be at least 0, not " + nodeId);
        }
    }

    /** The identity of a directory newly formatted for the node, with a fresh directory id. */
    public static MetaProperties forNewDirectory(String clusterId, int nodeId) {
        return new MetaProperties(clusterId, nodeId, randomUuid());
    }

    /**
     * A Kafka-style uuid: 16 random bytes as URL-safe base64 without padding (22 characters). One
     * starting with '-' is drawn again, as Kafka does, so that it never reads as a command-line flag.
     */
    public static String randomUuid() {
        byte[] bytes = new byte[UUID_BYTES];
        while (true) {
            RANDOM.nextBytes(bytes);
            String text = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            if (text.charAt(0) != '-') {
                return text;
            }
        }
    }

    /** This directory's id as a {@link UUID} (the 16 bytes {@link #directoryId()} encodes). */
    public UUID directoryUuid() {
        ByteBuffer bytes = ByteBuffer.wrap(Base64.getUrlDecoder().decode(directoryId));
        return new UUID(bytes.getLong(), bytes.getLong());
    }

    /** A {@link UUID} written the way Kafka writes ids: its 16 bytes as URL-safe base64 without padding. */
    public static String toKafkaUuid(UUID id) {
        ByteBuffer bytes = ByteBuffer.allocate(UUID_BYTES).putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits());
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
    }

    /**
     * Reads a Kafka-style uuid (see {@link #toKafkaUuid}).
     *
     * @throws IllegalArgumentException if it is not 22 URL-safe base64 characters encoding 16 bytes
     */
    public static UUID fromKafkaUuid(String text) {
        if (!isValidUuid(text)) {
            throw new IllegalArgumentException("'" + text + "' is not a Kafka uuid (22 URL-safe base64 characters)");
        }
        ByteBuffer bytes = ByteBuffer.wrap(Base64.getUrlDecoder().decode(text));
        return new UUID(bytes.getLong(), bytes.getLong());
    }

    /** Whether the text is a Kafka-style uuid: 22 URL-safe base64 characters that decode to 16 bytes. */
    public static boolean isValidUuid(String text) {
        if (text == null || text.length() != UUID_CHARS) {
            return false;
        }
        try {
            byte[] decoded = Base64.getUrlDecoder().decode(text);
            // Base64 ignores the low bits of the last character; re-encoding rejects such aliases.
            return decoded.length == UUID_BYTES
                    && Base64.getUrlEncoder().withoutPadding().encodeToString(decoded).equals(text);
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
    }

    /** The meta.properties file of a log directory. */
    public static Path file(Path logDir) {
        return logDir.resolve(FILE_NAME);
    }

    /**
     * Reads a directory's identity, or empty if the directory or its meta.properties does not exist.
     *
     * @throws CorruptMetaPropertiesException if the file cannot be read or does not hold a valid identity
     */
    public static Optional<MetaProperties> read(Path logDir) {
        Path file = file(logDir);
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException absent) {
            return Optional.empty();
        } catch (IOException | RuntimeException unreadable) {
            throw new CorruptMetaPropertiesException(file, "cannot be read (" + unreadable + ")");
        }
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException malformed) {
            throw new CorruptMetaPropertiesException(file, "is not a properties file (" + malformed.getMessage() + ")");
        }
        String version = required(file, properties, VERSION_KEY);
        if (!version.equals(Integer.toString(VERSION))) {
            throw new CorruptMetaPropertiesException(file, "has unsupported version " + version + ", expected " + VERSION);
        }
        String clusterId = required(file, properties, CLUSTER_ID_KEY);
        String nodeIdText = required(file, properties, NODE_ID_KEY);
        String directoryId = required(file, properties, DIRECTORY_ID_KEY);
        int nodeId;
        try {
            nodeId = Integer.parseInt(nodeIdText);
        } catch (NumberFormatException notInt) {
            throw new CorruptMetaPropertiesException(file, "has node.id " + nodeIdText + ", which is not an integer");
        }
        try {
            return Optional.of(new MetaProperties(clusterId, nodeId, directoryId));
        } catch (IllegalArgumentException invalid) {
            throw new CorruptMetaPropertiesException(file, "is invalid: " + invalid.getMessage());
        }
    }

    /**
     * Writes this identity into the directory, creating it if needed. Atomic and durable: the text goes
     * to a temp file that is fsynced and renamed over meta.properties, then the directory is fsynced.
     *
     * @throws UncheckedIOException naming the file if it cannot be written
     */
    public void write(Path logDir) {
        Path file = file(logDir);
        try {
            Files.createDirectories(logDir);
            DurableFiles.writeAtomically(file, text().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e, e);
        }
    }

    /** The file's text, keys in a fixed order so that equal identities give equal files. */
    String text() {
        return "#Written by kraft-cli format; do not edit\n"
                + VERSION_KEY + "=" + VERSION + "\n"
                + CLUSTER_ID_KEY + "=" + clusterId + "\n"
                + NODE_ID_KEY + "=" + nodeId + "\n"
                + DIRECTORY_ID_KEY + "=" + directoryId + "\n";
    }

    /**
     * Checks that every directory a node is about to use is formatted for this node and that all of
     * them belong to one cluster, and returns their identities in the given order.
     *
     * @param configFile the node's configuration file, named in the hint of what to run
     * @throws UnformattedLogDirException     if a directory or its meta.properties is missing
     * @throws CorruptMetaPropertiesException if a meta.properties cannot be read or is invalid
     * @throws NodeIdMismatchException        if a directory belongs to another node id
     * @throws ClusterIdMismatchException     if the directories disagree on the cluster id
     * @throws DuplicateDirectoryIdException  if two directories share a directory id (one was copied)
     */
    public static Map<Path, MetaProperties> verify(List<Path> logDirs, int nodeId, Path configFile) {
        Objects.requireNonNull(configFile, "configFile");
        if (logDirs.isEmpty()) {
            throw new IllegalArgumentException("no log directories to verify");
        }
        Map<Path, MetaProperties> found = new LinkedHashMap<>();
        String clusterId = null;
        Path clusterIdDir = null;
        for (Path dir : logDirs) {
            Optional<MetaProperties> meta = read(dir);
            if (meta.isEmpty()) {
                continue;
            }
            MetaProperties properties = meta.get();
            if (properties.nodeId() != nodeId) {
                throw new NodeIdMismatchException("log directory " + dir + " belongs to node.id " + properties.nodeId()
                        + " but " + configFile + " has node.id " + nodeId
                        + ": fix node.id or point log.dirs at this node's directories");
            }
            if (clusterId == null) {
                clusterId = properties.clusterId();
                clusterIdDir = dir;
            } else if (!clusterId.equals(properties.clusterId())) {
                throw new ClusterIdMismatchException("log directory " + dir + " has cluster.id " + properties.clusterId()
                        + " but " + clusterIdDir + " has cluster.id " + clusterId
                        + ": a node's directories must belong to one cluster; remove or reformat the stray one");
            }
            for (Map.Entry<Path, MetaProperties> earlier : found.entrySet()) {
                if (earlier.getValue().directoryId().equals(properties.directoryId())) {
                    throw new DuplicateDirectoryIdException("log directories " + earlier.getKey() + " and " + dir
                            + " have the same directory.id " + properties.directoryId() + ", so one is a copy: delete "
                            + file(dir) + " and run 'kraft-cli format --config " + configFile + " --cluster-id "
                            + clusterId + " --ignore-formatted'");
                }
            }
            found.put(dir, properties);
        }
        for (Path dir : logDirs) {
            if (!found.containsKey(dir)) {
                String idHint = clusterId != null ? clusterId + " --ignore-formatted" : "$(kraft-cli random-uuid)";
                throw new UnformattedLogDirException("log directory " + dir + " is not formatted: run 'kraft-cli format --config "
                        + configFile + " --cluster-id " + idHint + "'");
            }
        }
        Map<Path, MetaProperties> ordered = new LinkedHashMap<>();
        logDirs.forEach(dir -> ordered.put(dir, found.get(dir)));
        return ordered;
    }

    private static String required(Path file, Properties properties, String key) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new CorruptMetaPropertiesException(file, "has no " + key);
        }
        return value.trim();
    }

    private static void requireUuid(String key, String value) {
        if (!isValidUuid(value)) {
            throw new IllegalArgumentException(key + " " + value + " is not 22 URL-safe base64 characters encoding 16 bytes");
        }
    }

    /** A log directory cannot be used by this node; the message is one line saying what to do. */
    public abstract static class MetaPropertiesException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MetaPropertiesException(String message) {
            super(message);
        }
    }

    /** A log directory has no meta.properties: the node was never formatted for it. */
    public static final class UnformattedLogDirException extends MetaPropertiesException {
        private static final long serialVersionUID = 1L;

        UnformattedLogDirException(String message) {
            super(message);
        }
    }

    /** A node's log directories name different clusters. */
    public static final class ClusterIdMismatchException extends MetaPropertiesException {
        private static final long serialVersionUID = 1L;

        ClusterIdMismatchException(String message) {
            super(message);
        }
    }

    /** A log directory was formatted for another node id. */
    public static final class NodeIdMismatchException extends MetaPropertiesException {
        private static final long serialVersionUID = 1L;

        NodeIdMismatchException(String message) {
            super(message);
        }
    }

    /** Two of a node's log directories carry the same directory id (KIP-858 ids must be unique). */
    public static final class DuplicateDirectoryIdException extends MetaPropertiesException {
        private static final long serialVersionUID = 1L;

        DuplicateDirectoryIdException(String message) {
            super(message);
        }
    }

    /** A meta.properties exists but cannot be read or does not hold a valid identity. */
    public static final class CorruptMetaPropertiesException extends MetaPropertiesException {
        private static final long serialVersionUID = 1L;

        CorruptMetaPropertiesException(Path file, String problem) {
            super(file + " " + problem.replace('\n', ' ') + ": fix or delete it, then run 'kraft-cli format' for that directory");
        }
    }
}
