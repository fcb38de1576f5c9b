package io.kraft.broker.replica;

import io.kraft.storage.log.TopicPartition;
import java.nio.file.Path;
import java.util.Map;

/**
 * One log directory of this broker as DescribeLogDirs reports it: online with its replicas and space, or offline
 * (failed), with none.
 *
 * @param totalBytes  the size of the directory's file system, or -1 if unknown
 * @param usableBytes the bytes this process may still write there, or -1 if unknown
 */
public record LogDirDescription(Path dir, boolean online, long totalBytes, long usableBytes,
                                Map<TopicPartition, Replica> replicas) {
    /**
     * A replica's log: its size on disk and how far its end lags the partition's high watermark, or for a future
     * replica (a log moving into this directory, KIP-113) how far it lags the log it copies.
     */
    public record Replica(long sizeBytes, long offsetLag, boolean future) {
        /** A partition's current log. */
        public Replica(long sizeBytes, long offsetLag) {
            this(sizeBytes, offsetLag, false);
        }
    }

    public LogDirDescription {
        replicas = Map.copyOf(replicas);
    }
}
