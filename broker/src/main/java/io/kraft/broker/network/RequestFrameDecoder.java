package io.kraft.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the byte stream into request frames (the bytes after each int32 size), taking each frame's bytes from
 * the listener's {@link RequestMemoryPool} as they arrive. A size that is negative or above
 * {@code socket.request.max.bytes} closes the connection before any of that frame is buffered; while the pool
 * is used up the connection stops reading until memory comes back. Memory follows the bytes that really
 * arrived, not the size announced, so a client that announces 100 MiB and sends a trickle holds a trickle (and
 * the pool has it closed if that starves others, see {@link RequestMemoryPool}).
 *
 * <p>A frame that spans reads is kept as the parts that arrived (views of the read buffers, or exact copies of
 * parts that would pin a mostly empty read buffer, so what a connection holds is at most twice what it is charged)
 * and copied into one buffer once complete: one copy per frame, where a buffer growing with its frame would copy
 * a 100 MiB frame some 25 times, and nothing allocated ahead of the bytes (a buffer sized for the frame up front
 * would let thousands of slow senders each hold a mostly empty megabyte).
 */
final class RequestFrameDecoder extends ChannelInboundHandlerAdapter implements RequestMemoryPool.Connection {
    private static final Logger LOG = LoggerFactory.getLogger(RequestFrameDecoder.class);
    private static final int SIZE_BYTES = 4;
    /** The largest buffer small parts are copied into. */
    private static final int MAX_COPY_BYTES = 64 << 10;
    /** Parts smaller than this are copied, not kept as views of their read buffers. */
    private static final int MIN_VIEW_BYTES = 16 << 10;

    private final int requestMaxBytes;
    private final RequestMemoryPool memory;
    private final ReadGate gate;
    private final ByteBuf sizeBytes = Unpooled.buffer(SIZE_BYTES, SIZE_BYTES);
    /** The size of the frame being received, or -1 while its size is still being read. */
    private int frameSize = -1;
    /** Bytes of the current frame received (and taken from the pool) so far. */
    private int receivedBytes;
    /** The parts of the frame being received that are here, in order. */
    private final List<ByteBuf> parts = new ArrayList<>();
    /** The last part, when it is a copy made here that may have room left. */
    private ByteBuf tail;
    /** Bytes received while waiting for memory, to be decoded once it comes. */
    private CompositeByteBuf stash;
    /** When the incomplete frame began taking memory, or NEVER; read by the pool's sweep. */
    private volatile long frameStartNanos = RequestMemoryPool.NEVER;
    /** Since when this connection waits for memory, or NEVER; read by the pool's sweep. */
    private volatile long waitingSinceNanos = RequestMemoryPool.NEVER;
    private boolean rejected;
    private boolean closed;
    private ChannelHandlerContext context;

    RequestFrameDecoder(int requestMaxBytes, RequestMemoryPool memory, ReadGate gate) {
        this.requestMaxBytes = requestMaxBytes;
        this.memory = memory;
        this.gate = gate;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        context = ctx;
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
                waitingSinceNanos = RequestMemoryPool.NEVER;
                if (parts.isEmpty() && bytes == frameSize) {
                    // The whole frame is here: a view of the read buffer, no copy.
                    ByteBuf whole = frameSize == 0 ? Unpooled.EMPTY_BUFFER : in.readRetainedSlice(frameSize);
                    complete(ctx, whole);
                    continue;
                }
                if (parts.isEmpty()) {
                    frameStartNanos = memory.nanos();
                    memory.frameStarted(this);
                }
                addPart(ctx, in, bytes);
                receivedBytes += bytes;
                if (receivedBytes == frameSize) {
                    complete(ctx, assemble(ctx));
                }
            }
        } finally {
            in.release();
        }
    }

    /**
     * Adds the next {@code bytes} of {@code in} to the frame: a view if the part is large and fills at least half
     * its read buffer; else a copy, into the room left in the last copy if it fits, else into a new buffer twice the
     * last one's size (at most 64 KiB). So a part never pins a mostly empty read buffer, and a frame arriving in
     * small reads makes few parts (a part is an object of its own: a 100 MiB frame in 64-byte views was 1.6 million
     * of them, heap the request memory does not count).
     */
    private void addPart(ChannelHandlerContext ctx, ByteBuf in, int bytes) {
        if (bytes >= MIN_VIEW_BYTES && 2L * bytes >= in.capacity()) {
            parts.add(in.readRetainedSlice(bytes));
            tail = null;
            return;
        }
        if (tail == null || tail.writableBytes() < bytes) {
            long doubled = tail == null ? bytes : 2L * tail.capacity();
            int capacity = (int) Math.min(frameSize - receivedBytes,
                    Math.max(bytes, Math.min(MAX_COPY_BYTES, doubled)));
            tail = ctx.alloc().directBuffer(capacity, capacity);
            parts.add(tail);
        }
        tail.writeBytes(in, bytes);
    }

    /** Parts the incomplete frame is kept in now (for tests). */
    int partCount() {
        return parts.size();
    }

    /** The frame's parts as one buffer, each part released as soon as it is copied. */
    private ByteBuf assemble(ChannelHandlerContext ctx) {
        tail = null;
        if (parts.size() == 1) {
            return parts.remove(0);
        }
        ByteBuf whole = ctx.alloc().directBuffer(frameSize, frameSize);
        for (ByteBuf part : parts) {
            whole.writeBytes(part);
            part.release();
        }
        parts.clear();
        return whole;
    }

    private boolean reserve(int bytes) {
        // Only a frame already under way may overdraw: it is what frees memory once it is complete.
        return memory.tryReserve(bytes) || receivedBytes > 0 && memory.tryOverdraft(this, bytes);
    }

    private void complete(ChannelHandlerContext ctx, ByteBuf whole) {
        int size = frameSize;
        frameSize = -1;
        receivedBytes = 0;
        frameStartNanos = RequestMemoryPool.NEVER;
        memory.frameEnded(this);
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

    @Override
    public long waitingSinceNanos() {
        return waitingSinceNanos;
    }

    @Override
    public long frameStartNanos() {
        return frameStartNanos;
    }

    @Override
    public void wake() {
        onLoop(() -> resume(context));
    }

    @Override
    public void closeForStalling(RequestMemoryPool.Connection starved, long starvedNanos) {
        onLoop(() -> {
            if (closed || parts.isEmpty()) {
                return;
            }
            LOG.debug("Closing connection from {}: {} of its {}-byte request arrived, begun {} ms ago, while another"
                    + " connection has waited {} ms for request memory", peer(), receivedBytes, frameSize,
                    TimeUnit.NANOSECONDS.toMillis(memory.nanos() - frameStartNanos),
                    TimeUnit.NANOSECONDS.toMillis(starvedNanos));
            context.close();
        });
    }

    @Override
    public String peer() {
        ChannelHandlerContext ctx = context;
        return ctx == null ? "?" : String.valueOf(ctx.channel().remoteAddress());
    }

    private void onLoop(Runnable task) {
        try {
            context.executor().execute(task);
        } catch (RejectedExecutionException e) {
            // The event loop is shutting down; the connection goes with it.
        }
    }

    /** Bytes the connection should read at most next time, {@code wanted} if it could (see the pool). */
    int readBytes(int wanted) {
        return memory.readBytes(this, wanted);
    }

    private void waitForMemory(ChannelHandlerContext ctx, ByteBuf in) {
        stash = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
        stash.addComponent(true, in.retain());
        gate.pause(ReadGate.Reason.REQUEST_MEMORY);
        LOG.debug("Connection from {} waits for request memory ({} of {} bytes in use)",
                ctx.channel().remoteAddress(), memory.usedBytes(), memory.capacityBytes());
        if (waitingSinceNanos == RequestMemoryPool.NEVER) {
            waitingSinceNanos = memory.nanos();
        }
        memory.whenAvailable(this);
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
        parts.forEach(ByteBuf::release);
        parts.clear();
        tail = null;
        frameStartNanos = RequestMemoryPool.NEVER;
        waitingSinceNanos = RequestMemoryPool.NEVER;
        memory.stopWaiting(this);
        memory.frameEnded(this);
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
