package io.kraft.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the byte stream into request frames (the bytes after each int32 size). A size that is negative
 * or above {@code socket.request.max.bytes} closes the connection before any of that frame is buffered.
 */
final class RequestFrameDecoder extends ByteToMessageDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(RequestFrameDecoder.class);
    private static final int SIZE_BYTES = 4;

    private final int requestMaxBytes;
    private boolean rejected;

    RequestFrameDecoder(int requestMaxBytes) {
        this.requestMaxBytes = requestMaxBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (rejected) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < SIZE_BYTES) {
            return;
        }
        int sizeBytes = in.getInt(in.readerIndex());
        if (sizeBytes < 0 || sizeBytes > requestMaxBytes) {
            rejected = true;
            in.skipBytes(in.readableBytes());
            LOG.warn("Closing connection from {}: request size {} is outside [0, {}] ({})",
                    ctx.channel().remoteAddress(), sizeBytes, requestMaxBytes,
                    SocketServerConfig.SOCKET_REQUEST_MAX_BYTES);
            ctx.close();
            return;
        }
        if (in.readableBytes() < SIZE_BYTES + sizeBytes) {
            return;
        }
        in.skipBytes(SIZE_BYTES);
        out.add(in.readRetainedSlice(sizeBytes));
    }
}
