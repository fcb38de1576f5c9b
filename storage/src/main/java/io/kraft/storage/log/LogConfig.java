package io.kraft.storage.log;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicLogSettings;
import io.kraft.storage.record.CompressionType;
import java.util.Optional;

/**
 * The settings one partition log obeys, as plain values with Kafka's defaults; the broker maps its
 * typed configuration (topic overrides over broker defaults) onto this record.
 *
 * @param segmentBytes           roll when the active segment would exceed this size ({@code segment.bytes})
 * @param segmentMs              roll when the active segment's first append is older than this ({@code segment.ms})
 * @param indexIntervalBytes     bytes of batches between two offset index entries ({@code index.interval.bytes})
 * @param maxIndexBytes          preallocated size of each index; a full index rolls ({@code segment.index.bytes})
 * @param retentionMs            delete segments whose newest timestamp is older than this; -1 keeps forever
 * @param retentionBytes         delete oldest segments while the log is larger than this; -1 means no limit
 * @param flushMessages          fsync after this many appended records ({@code flush.messages})
 * @param flushMs                fsync when the last flush is older than this ({@code flush.ms})
 * @param maxMessageBytes        largest record batch a producer may append ({@code max.message.bytes})
 * @param logAppendTime          stamp batches with the broker's time ({@code message.timestamp.type=LogAppendTime})
 * @param compact                cleanup.policy contains compact
 * @param delete                 cleanup.policy contains delete
 * @param deleteRetentionMs      how long the cleaner keeps tombstones ({@code delete.retention.ms})
 * @param minCleanableDirtyRatio dirty share that makes a log eligible for cleaning
 * @param fileDeleteDelayMs      how long a removed segment stays readable (renamed {@code .deleted}) before its files go
 * @param minCompactionLagMs     the cleaner leaves records younger than this alone ({@code min.compaction.lag.ms})
 * @param compressionType        codec batches are stored with: {@code producer} keeps the producer's, else one of
 *                               {@code uncompressed}, {@code gzip}, {@code snappy}, {@code lz4}, {@code zstd}
 *                               ({@code compression.type})
 * @param messageTimestampBeforeMaxMs a CreateTime record older than now minus this is refused (KIP-937)
 * @param messageTimestampAfterMaxMs  a CreateTime record newer than now plus this is refused (KIP-937)
 * @param producerIdExpirationMs idempotent producers idle this long are forgotten ({@code producer.id.expiration.ms})
 */
public record LogConfig(
        int segmentBytes,
        long segmentMs,
        int indexIntervalBytes,
        int maxIndexBytes,
        long retentionMs,
        long retentionBytes,
        long flushMessages,
        long flushMs,
        int maxMessageBytes,
        boolean logAppendTime,
        boolean compact,
        boolean delete,
        long deleteRetentionMs,
        double minCleanableDirtyRatio,
        long fileDeleteDelayMs,
        long minCompactionLagMs,
        String compressionType,
        long messageTimestampBeforeMaxMs,
        long messageTimestampAfterMaxMs,
        long producerIdExpirationMs) {

    /**
     * What one compressed batch may decode to beyond {@code max.message.bytes} when the broker reads its records
     * (record rules, re-compression): room for honest batches of very compressible data, while a bomb (1 MiB
     * inflating to 1 GiB) stops early with RECORD_TOO_LARGE instead of filling the heap.
     */
    public static final long DECOMPRESSION_MARGIN_BYTES = 64L << 20;

    /** Smallest index that holds two time index entries, so an empty segment's index is never full. */
    public static final int MIN_INDEX_BYTES = 2 * TimeIndex.ENTRY_SIZE_BYTES;

    public LogConfig {
        if (segmentBytes < 14) {
            throw new IllegalArgumentException("segmentBytes must be at least 14, got " + segmentBytes);
        }
        if (segmentMs < 1) {
            throw new IllegalArgumentException("segmentMs must be positive, got " + segmentMs);
        }
        if (indexIntervalBytes < 0) {
            throw new IllegalArgumentException("indexIntervalBytes must not be negative, got " + indexIntervalBytes);
        }
        if (maxIndexBytes < MIN_INDEX_BYTES) {
            throw new IllegalArgumentException("maxIndexBytes must be at least " + MIN_INDEX_BYTES + ", got "
                    + maxIndexBytes);
        }
        if (retentionMs < -1) {
            throw new IllegalArgumentException("retentionMs must be -1 (unlimited) or more, got " + retentionMs);
        }
        if (retentionBytes < -1) {
            throw new IllegalArgumentException("retentionBytes must be -1 (unlimited) or more, got " + retentionBytes);
        }
        if (flushMessages < 1 || flushMs < 0) {
            throw new IllegalArgumentException("flushMessages must be positive and flushMs not negative, got "
                    + flushMessages + " and " + flushMs);
        }
        if (maxMessageBytes < 0) {
            throw new IllegalArgumentException("maxMessageBytes must not be negative, got " + maxMessageBytes);
        }
        if (deleteRetentionMs < 0 || fileDeleteDelayMs < 0) {
            throw new IllegalArgumentException("deleteRetentionMs and fileDeleteDelayMs must not be negative, got "
                    + deleteRetentionMs + " and " + fileDeleteDelayMs);
        }
        if (minCompactionLagMs < 0) {
            throw new IllegalArgumentException("minCompactionLagMs must not be negative, got " + minCompactionLagMs);
        }
        if (minCleanableDirtyRatio < 0 || minCleanableDirtyRatio > 1) {
            throw new IllegalArgumentException("minCleanableDirtyRatio must be within [0, 1], got "
                    + minCleanableDirtyRatio);
        }
        if (!LogConfigs.COMPRESSION_TYPES.contains(compressionType)) {
            throw new IllegalArgumentException("compressionType must be one of " + LogConfigs.COMPRESSION_TYPES
                    + ", got " + compressionType);
        }
        if (messageTimestampBeforeMaxMs < 0 || messageTimestampAfterMaxMs < 0) {
            throw new IllegalArgumentException("messageTimestampBeforeMaxMs and messageTimestampAfterMaxMs must not be "
                    + "negative, got " + messageTimestampBeforeMaxMs + " and " + messageTimestampAfterMaxMs);
        }
        if (producerIdExpirationMs < 1) {
            throw new IllegalArgumentException("producerIdExpirationMs must be positive, got " + producerIdExpirationMs);
        }
    }

    /** The most bytes one compressed batch of a producer may decode to: max.message.bytes plus the margin. */
    public long maxDecompressedBytes() {
        return maxMessageBytes + DECOMPRESSION_MARGIN_BYTES;
    }

    /** The codec the leader re-compresses batches to, or empty when the producer's codec is kept. */
    public Optional<CompressionType> targetCompression() {
        return switch (compressionType) {
            case "producer" -> Optional.empty();
            case "uncompressed" -> Optional.of(CompressionType.NONE);
            default -> Optional.of(CompressionType.forName(compressionType));
        };
    }

    /**
     * Kafka's defaults: 1 GiB / 7 day segments, 4 KiB index interval, 10 MiB indexes, 7 day retention,
     * the producer's codec, timestamps at most 1 hour ahead, producer ids kept 1 day.
     */
    public static LogConfig defaults() {
        return builder().build();
    }

    /**
     * A topic's effective settings (its overrides over the broker's defaults, as the config module
     * resolves them) plus the broker-only producer.id.expiration.ms, as the log's plain values.
     */
    public static LogConfig from(TopicLogSettings settings, BrokerLogSettings broker) {
        return from(settings).toBuilder().producerIdExpirationMs(broker.producerIdExpirationMs()).build();
    }

    /**
     * A topic's effective settings (its overrides over the broker's defaults, as the config module
     * resolves them) as the log's plain values; producer.id.expiration.ms keeps its default.
     */
    public static LogConfig from(TopicLogSettings settings) {
        return builder()
                .segmentBytes(settings.segmentBytes())
                .segmentMs(settings.segmentMs())
                .indexIntervalBytes(settings.indexIntervalBytes())
                .maxIndexBytes(settings.segmentIndexBytes())
                .retentionMs(settings.retentionMs())
                .retentionBytes(settings.retentionBytes())
                .flushMessages(settings.flushMessages())
                .flushMs(settings.flushMs())
                .maxMessageBytes(settings.maxMessageBytes())
                .logAppendTime(LogConfigs.TIMESTAMP_TYPE_LOG_APPEND_TIME.equals(settings.messageTimestampType()))
                .compact(settings.compactionEnabled())
                .delete(settings.deletionEnabled())
                .deleteRetentionMs(settings.deleteRetentionMs())
                .minCleanableDirtyRatio(settings.minCleanableDirtyRatio())
                .fileDeleteDelayMs(settings.fileDeleteDelayMs())
                .minCompactionLagMs(settings.minCompactionLagMs())
                .compressionType(settings.compressionType())
                .messageTimestampBeforeMaxMs(settings.messageTimestampBeforeMaxMs())
                .messageTimestampAfterMaxMs(settings.messageTimestampAfterMaxMs())
                .build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this config's values. */
    public Builder toBuilder() {
        return new Builder()
                .segmentBytes(segmentBytes).segmentMs(segmentMs).indexIntervalBytes(indexIntervalBytes)
                .maxIndexBytes(maxIndexBytes).retentionMs(retentionMs).retentionBytes(retentionBytes)
                .flushMessages(flushMessages).flushMs(flushMs).maxMessageBytes(maxMessageBytes)
                .logAppendTime(logAppendTime).compact(compact).delete(delete).deleteRetentionMs(deleteRetentionMs)
                .minCleanableDirtyRatio(minCleanableDirtyRatio).fileDeleteDelayMs(fileDeleteDelayMs)
                .minCompactionLagMs(minCompactionLagMs).compressionType(compressionType)
                .messageTimestampBeforeMaxMs(messageTimestampBeforeMaxMs)
                .messageTimestampAfterMaxMs(messageTimestampAfterMaxMs).producerIdExpirationMs(producerIdExpirationMs);
    }

    /** Builds a {@link LogConfig}; every field starts at Kafka's default. */
    public static final class Builder {
        private int segmentBytes = 1024 * 1024 * 1024;
        private long segmentMs = 7L * 24 * 60 * 60 * 1000;
        private int indexIntervalBytes = 4096;
        private int maxIndexBytes = 10 * 1024 * 1024;
        private long retentionMs = 7L * 24 * 60 * 60 * 1000;
        private long retentionBytes = -1;
        private long flushMessages = Long.MAX_VALUE;
        private long flushMs = Long.MAX_VALUE;
        private int maxMessageBytes = 1024 * 1024 + 12;
        private boolean logAppendTime = false;
        private boolean compact = false;
        private boolean delete = true;
        private long deleteRetentionMs = 24L * 60 * 60 * 1000;
        private double minCleanableDirtyRatio = 0.5;
        private long fileDeleteDelayMs = 60_000;
        private long minCompactionLagMs = 0;
        private String compressionType = "producer";
        private long messageTimestampBeforeMaxMs = Long.MAX_VALUE;
        private long messageTimestampAfterMaxMs = 60L * 60 * 1000;
        private long producerIdExpirationMs = 24L * 60 * 60 * 1000;

        public Builder segmentBytes(int v) { segmentBytes = v; return this; }
        public Builder segmentMs(long v) { segmentMs = v; return this; }
        public Builder indexIntervalBytes(int v) { indexIntervalBytes = v; return this; }
        public Builder maxIndexBytes(int v) { maxIndexBytes = v; return this; }
        public Builder retentionMs(long v) { retentionMs = v; return this; }
        public Builder retentionBytes(long v) { retentionBytes = v; return this; }
        public Builder flushMessages(long v) { flushMessages = v; return this; }
        public Builder flushMs(long v) { flushMs = v; return this; }
        public Builder maxMessageBytes(int v) { maxMessageBytes = v; return this; }
        public Builder logAppendTime(boolean v) { logAppendTime = v; return this; }
        public Builder compact(boolean v) { compact = v; return this; }
        public Builder delete(boolean v) { delete = v; return this; }
        public Builder deleteRetentionMs(long v) { deleteRetentionMs = v; return this; }
        public Builder minCleanableDirtyRatio(double v) { minCleanableDirtyRatio = v; return this; }
        public Builder fileDeleteDelayMs(long v) { fileDeleteDelayMs = v; return this; }
        public Builder minCompactionLagMs(long v) { minCompactionLagMs = v; return this; }
        public Builder compressionType(String v) { compressionType = v; return this; }
        public Builder messageTimestampBeforeMaxMs(long v) { messageTimestampBeforeMaxMs = v; return this; }
        public Builder messageTimestampAfterMaxMs(long v) { messageTimestampAfterMaxMs = v; return this; }
        public Builder producerIdExpirationMs(long v) { producerIdExpirationMs = v; return this; }

        public LogConfig build() {
            return new LogConfig(segmentBytes, segmentMs, indexIntervalBytes, maxIndexBytes, retentionMs,
                    retentionBytes, flushMessages, flushMs, maxMessageBytes, logAppendTime, compact, delete,
                    deleteRetentionMs, minCleanableDirtyRatio, fileDeleteDelayMs, minCompactionLagMs, compressionType,
                    messageTimestampBeforeMaxMs, messageTimestampAfterMaxMs, producerIdExpirationMs);
        }
    }
}
