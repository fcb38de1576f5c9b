package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ResponseFrame;
import io.kraft.broker.protocol.message.ApiMessage;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One response ready for the socket: the frame's bytes in a pooled buffer with the file regions of its
 * record data spliced in between (zero copy; chunked reads on TLS connections), or nothing (acks=0), or a request
 * to close the connection.
 */
final class OutboundResponse {
    static final OutboundResponse NOTHING = new OutboundResponse(List.of(), false);
    static final OutboundResponse CLOSE = new OutboundResponse(List.of(), true);

    /** ByteBufs and FileRegions (or SliceChunkedInputs) in wire order; each owns one reference. */
    private final List<Object> parts;
    private final boolean closeConnection;

    private OutboundResponse(List<Object> parts, boolean closeConnection) {
        this.parts = parts;
        this.closeConnection = closeConnection;
    }

    /** A response frame holding {@code bytes} (e.g. ApiVersions' v0 fallback). */
    static OutboundResponse of(ByteBuffer bytes, ByteBufAllocator alloc) {
        ByteBuf buf = alloc.directBuffer(bytes.remaining());
        buf.writeBytes(bytes);
        return new OutboundResponse(List.of(buf), false);
    }

    /**
     * Serializes the response frame of {@code body}: the bytes around its {@link FileSliceRecords} go into
     * one pooled buffer, each slice becomes a file region at its place.
     *
     * @throws IllegalStateException if the body holds external records that are not file slices
     */
    static OutboundResponse frame(ByteBufAllocator alloc, ApiKey api, short version, int correlationId,
                                  ApiMessage body) {
        return frame(alloc, api, version, correlationId, body, false);
    }

    /**
     * As {@link #frame(ByteBufAllocator, ApiKey, short, int, ApiMessage)}; with {@code copyRecords} (a TLS
     * connection, whose bytes must pass through the encrypting handler) each slice is a {@link SliceChunkedInput},
     * read from its file in chunks as the connection takes them, instead of a file region.
     */
    static OutboundResponse frame(ByteBufAllocator alloc, ApiKey api, short version, int correlationId,
                                  ApiMessage body, boolean copyRecords) {
        int frameSize = ResponseFrame.frameSize(api, version, body);
        int inlineSize = Math.toIntExact(frameSize - body.externalRecordsBytes(version));
        ByteBuf buf = alloc.directBuffer(inlineSize, inlineSize);
        List<Object> parts = new ArrayList<>(inlineSize == frameSize ? 1 : 8);
        try {
            ByteBuffer out = buf.nioBuffer(0, inlineSize);
            int[] from = {0};
            ResponseFrame.write(api, version, correlationId, body, out, (offset, records) -> {
                if (offset > from[0]) {
                    parts.add(buf.retainedSlice(from[0], offset - from[0]));
                    from[0] = offset;
                }
                if (records.sizeInBytes() > 0) {
                    if (!(records instanceof FileSliceRecords file)) {
                        throw new IllegalStateException(api.apiName() + " response holds records of "
                                + records.getClass().getName() + ", which the server cannot send");
                    }
                    parts.add(copyRecords ? new SliceChunkedInput(file.slice()) : new SliceFileRegion(file.slice()));
                }
            });
            if (out.position() != inlineSize) {
                throw new IllegalStateException(api.apiName() + " v" + version + " response wrote " + out.position()
                        + " bytes around its records, expected " + inlineSize);
            }
            buf.writerIndex(inlineSize);
            if (inlineSize > from[0]) {
                parts.add(buf.retainedSlice(from[0], inlineSize - from[0]));
            }
            return new OutboundResponse(parts, false);
        } catch (RuntimeException e) {
            parts.forEach(ReferenceCountUtil::release);
            throw e;
        } finally {
            buf.release();
        }
    }

    /** This response, after which the connection closes (a failed authentication's answer). */
    OutboundResponse thenClose() {
        return new OutboundResponse(parts, true);
    }

    /** The ByteBufs and FileRegions to write, in wire order. */
    List<Object> parts() {
        return parts;
    }

    boolean closesConnection() {
        return closeConnection;
    }

    boolean isEmpty() {
        return parts.isEmpty();
    }

    /** Queues the parts on the channel (without flushing); the channel takes over their references. */
    void write(ChannelHandlerContext ctx) {
        for (Object part : parts) {
            ctx.write(part, ctx.voidPromise());
        }
    }

    /** Releases the parts of a response that will not be sent. */
    void discard() {
        parts.forEach(ReferenceCountUtil::release);
    }
}
