package io.kraft.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the byte stream into request frames (the bytes after each int32 size), taking each frame's bytes from
 * the listener's {@link RequestMemoryPool} as they arrive. A size that is negative or above
 * {@code socket.request.max.bytes} closes the connection before any of that frame is buffered; while the pool
 * is used up the connection stops reading until memory comes back. Memory follows the bytes that really
 * arrived, not the size announced, so a client that announces 100 MiB and sends a trickle holds a trickle.
 */
final class RequestFrameDecoder extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(RequestFrameDecoder.class);
    private static final int SIZE_BYTES = 4;
    /** Frames up to this size get their whole buffer at once; larger ones grow as their bytes arrive. */
    private static final int EAGER_BUFFER_BYTES = 1 << 20;

    private final int requestMaxBytes;
    private final RequestMemoryPool memory;
    private final ReadGate gate;
    private final ByteBuf sizeBytes = Unpooled.buffer(SIZE_BYTES, SIZE_BYTES);
    /** The size of the frame being received, or -1 while its size is still being read. */
    private int frameSize = -1;
    /** Bytes of the current frame received (and taken from the pool) so far. */
    private int receivedBytes;
    /** The frame being received, once part of it is here. */
    private ByteBuf frame;
    /** Bytes received while waiting for memory, to be decoded once it comes. */
    private CompositeByteBuf stash;
    private boolean rejected;
    private boolean closed;

    RequestFrameDecoder(int requestMaxBytes, RequestMemoryPool memory, ReadGate gate) {
        this.requestMaxBytes = requestMaxBytes;
        this.memory = memory;
        this.gate = gate;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        if (rejected || closed) {
            in.release();
            return;
        }
        if (stash != null) {
            stash.addComponent(true, in);
            return;
        }
        decode(ctx, in);
    }

    /** Decodes {@code in} (and releases it) unless the pool runs dry, in which case the rest is stashed. */
    private void decode(ChannelHandlerContext ctx, ByteBuf in) {
        try {
            while (!rejected && (in.isReadable() || frameSize == 0)) {
                if (frameSize < 0 && !readSize(ctx, in)) {
                    continue;
                }
                int bytes = Math.min(frameSize - receivedBytes, in.readableBytes());
                if (!reserve(bytes)) {
                    waitForMemory(ctx, in);
                    return;
                }
                if (frame == null && bytes == frameSize) {
                    // The whole frame is here: a view of the read buffer, no copy.
                    ByteBuf whole = frameSize == 0 ? Unpooled.EMPTY_BUFFER : in.readRetainedSlice(frameSize);
                    complete(ctx, whole);
                    continue;
                }
                if (frame == null) {
                    frame = ctx.alloc().directBuffer(Math.min(frameSize, EAGER_BUFFER_BYTES), frameSize);
                }
                frame.writeBytes(in, bytes);
                receivedBytes += bytes;
                if (receivedBytes == frameSize) {
                    ByteBuf whole = frame;
                    frame = null;
                    complete(ctx, whole);
                }
            }
        } finally {
            in.release();
        }
    }

    private boolean reserve(int bytes) {
        // Only a frame already under way may overdraw: it is what frees memory once it is complete.
        return memory.tryReserve(bytes) || receivedBytes > 0 && memory.tryOverdraft(this, bytes);
    }

    private void complete(ChannelHandlerContext ctx, ByteBuf whole) {
        int size = frameSize;
        frameSize = -1;
        receivedBytes = 0;
        memory.endOverdraft(this);
        ctx.fireChannelRead(new InboundFrame(whole, size, memory));
    }

    /** Reads size bytes; true once the frame's size is known and valid. */
    private boolean readSize(ChannelHandlerContext ctx, ByteBuf in) {
        in.readBytes(sizeBytes, Math.min(sizeBytes.writableBytes(), in.readableBytes()));
        if (sizeBytes.isWritable()) {
            return false;
        }
        int size = sizeBytes.getInt(0);
        sizeBytes.clear();
        if (size < 0 || size > requestMaxBytes) {
            rejected = true;
            LOG.warn("Closing connection from {}: request size {} is outside [0, {}] ({})",
                    ctx.channel().remoteAddress(), size, requestMaxBytes, SocketServerConfig.SOCKET_REQUEST_MAX_BYTES);
            ctx.close();
            return false;
        }
        frameSize = size;
        receivedBytes = 0;
        return true;
    }

    private void waitForMemory(ChannelHandlerContext ctx, ByteBuf in) {
        stash = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
        stash.addComponent(true, in.retain());
        gate.pause(ReadGate.Reason.REQUEST_MEMORY);
        LOG.debug("Connection from {} waits for request memory ({} of {} bytes in use)",
                ctx.channel().remoteAddress(), memory.usedBytes(), memory.capacityBytes());
        memory.whenAvailable(() -> {
            try {
                ctx.executor().execute(() -> resume(ctx));
            } catch (RejectedExecutionException e) {
                // The event loop is shutting down; the connection goes with it.
            }
        });
    }

    private void resume(ChannelHandlerContext ctx) {
        if (closed || stash == null) {
            return;
        }
        ByteBuf waiting = stash;
        stash = null;
        decode(ctx, waiting);
        if (stash == null) {
            gate.resume(ReadGate.Reason.REQUEST_MEMORY);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseAll();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseAll();
    }

    private void releaseAll() {
        if (closed) {
            return;
        }
        closed = true;
        if (frame != null) {
            frame.release();
            frame = null;
        }
        memory.release(receivedBytes);
        receivedBytes = 0;
        memory.endOverdraft(this);
        if (stash != null) {
            stash.release();
            stash = null;
        }
        sizeBytes.release();
    }
}
