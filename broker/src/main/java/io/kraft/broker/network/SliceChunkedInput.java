package io.kraft.broker.network;

import io.kraft.storage.log.FileSlice;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;
import java.io.EOFException;

/**
 * A {@link FileSlice} read in chunks as the connection can take them, for TLS connections, whose bytes must pass
 * through the encrypting handler and so cannot be a file region. Netty's {@code ChunkedWriteHandler} asks for the
 * next chunk only while the channel is writable, so a connection holds about its outbound buffer's high water mark of
 * record bytes, however large its fetch responses. Closing it leaves the file channel open: the segment owns it.
 */
final class SliceChunkedInput implements ChunkedInput<ByteBuf> {
    /**
     * Four TLS records' payload (the SslHandler cuts a chunk into 16 KiB records): one pread per 64 KiB of records
     * rather than per 16 KiB, fewer reads of the file than Kafka's TLS fetches make, for at most one chunk more per
     * connection above the outbound high water mark.
     */
    static final int CHUNK_BYTES = 64 * 1024;

    private final FileSlice slice;
    private long offset;

    SliceChunkedInput(FileSlice slice) {
        this.slice = slice;
    }

    @Override
    public boolean isEndOfInput() {
        return offset >= slice.sizeBytes();
    }

    @Override
    public void close() {
        // The segment owns the file channel.
    }

    @Override
    @Deprecated
    public ByteBuf readChunk(ChannelHandlerContext ctx) throws Exception {
        return readChunk(ctx.alloc());
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) throws Exception {
        if (isEndOfInput()) {
            return null;
        }
        int size = (int) Math.min(CHUNK_BYTES, slice.sizeBytes() - offset);
        ByteBuf chunk = allocator.directBuffer(size, size);
        try {
            while (chunk.isWritable()) {
                int read = chunk.writeBytes(slice.channel(), slice.position() + offset + chunk.writerIndex(),
                        chunk.writableBytes());
                if (read < 0) {
                    throw new EOFException("file slice at position " + slice.position() + " of " + slice.sizeBytes()
                            + " bytes extends past the end of its file");
                }
            }
            offset += size;
            return chunk;
        } catch (Exception e) {
            chunk.release();
            throw e;
        }
    }

    @Override
    public long length() {
        return slice.sizeBytes();
    }

    @Override
    public long progress() {
        return offset;
    }
}
