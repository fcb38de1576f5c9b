package io.kraft.storage.record;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.xerial.snappy.SnappyInputStream;
import org.xerial.snappy.SnappyOutputStream;

/**
 * The codecs a v2 batch may use for its records (attribute bits 0-2), with the stream framing Kafka
 * clients use for each: gzip (RFC 1952), snappy-java's stream framing, the LZ4 frame format, zstd frames.
 */
public enum CompressionType {
    NONE(0, "none"),
    GZIP(1, "gzip"),
    SNAPPY(2, "snappy"),
    LZ4(3, "lz4"),
    ZSTD(4, "zstd");

    /** Buffers writes in front of codecs whose per-call cost is high (deflate, JNI). */
    private static final int WRITE_BUFFER_BYTES = 16 * 1024;
    private static final int GZIP_BUFFER_BYTES = 8 * 1024;
    private static final int SNAPPY_MIN_CHUNK_LIMIT_BYTES = 1024;
    /** Kafka's default zstd level (also zstd's own default). */
    private static final int ZSTD_LEVEL = 3;

    private final int id;
    private final String configName;

    CompressionType(int id, String configName) {
        this.id = id;
        this.configName = configName;
    }

    /** The value stored in the batch attributes. */
    public int id() {
        return id;
    }

    /** The name used by {@code compression.type}. */
    public String configName() {
        return configName;
    }

    /** @throws IllegalArgumentException for an id no codec has */
    public static CompressionType forId(int id) {
        return switch (id) {
            case 0 -> NONE;
            case 1 -> GZIP;
            case 2 -> SNAPPY;
            case 3 -> LZ4;
            case 4 -> ZSTD;
            default -> throw new IllegalArgumentException("unknown compression codec id " + id);
        };
    }

    /** @throws IllegalArgumentException for a name no codec has */
    public static CompressionType forName(String name) {
        for (CompressionType type : values()) {
            if (type.configName.equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown compression type '" + name + "'");
    }

    /**
     * Wraps {@code out} so bytes written come out compressed; closing the returned stream finishes
     * the codec's framing and closes {@code out}. {@link #NONE} returns {@code out} itself.
     */
    public OutputStream wrapForOutput(OutputStream out) throws IOException {
        return switch (this) {
            case NONE -> out;
            case GZIP -> new BufferedOutputStream(new GZIPOutputStream(out, GZIP_BUFFER_BYTES), WRITE_BUFFER_BYTES);
            case SNAPPY -> new SnappyOutputStream(out);
            case LZ4 -> new Lz4FrameOutputStream(out);
            case ZSTD -> new BufferedOutputStream(
                    new ZstdOutputStreamNoFinalizer(out, RecyclingBufferPool.INSTANCE, ZSTD_LEVEL), WRITE_BUFFER_BYTES);
        };
    }

    /**
     * A stream of the decompressed form of the buffer's remaining bytes (the buffer's position is not
     * moved). Close it to release native codec state and pooled buffers.
     *
     * @throws IOException when the codec's header is already unreadable
     */
    public InputStream wrapForInput(ByteBuffer compressed) throws IOException {
        return switch (this) {
            case NONE -> new ByteBufferInputStream(compressed);
            case GZIP -> new GZIPInputStream(new ByteBufferInputStream(compressed), GZIP_BUFFER_BYTES);
            // A chunk cannot be larger than the whole payload, so a corrupt chunk size cannot force a huge allocation.
            case SNAPPY -> new SnappyInputStream(new ByteBufferInputStream(compressed),
                    Math.max(compressed.remaining(), SNAPPY_MIN_CHUNK_LIMIT_BYTES));
            case LZ4 -> new Lz4FrameInputStream(compressed);
            case ZSTD -> new ZstdInputStreamNoFinalizer(new ByteBufferInputStream(compressed), RecyclingBufferPool.INSTANCE);
        };
    }
}
