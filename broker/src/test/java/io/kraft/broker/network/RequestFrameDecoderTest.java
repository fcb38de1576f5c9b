package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Frames are cut from the stream, take request memory as their bytes arrive, and wait while the pool is used up. */
class RequestFrameDecoderTest {
    private final List<InboundFrame> frames = new ArrayList<>();
    private final AtomicLong nanos = new AtomicLong();

    private EmbeddedChannel channel(RequestMemoryPool memory, int requestMaxBytes) {
        EmbeddedChannel channel = new EmbeddedChannel();
        ReadGate gate = new ReadGate(channel);
        channel.pipeline().addLast(new RequestFrameDecoder(requestMaxBytes, memory, gate),
                new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        frames.add((InboundFrame) msg);
                    }
                });
        return channel;
    }

    private static ByteBuf frame(int size, int fill) {
        ByteBuf buf = Unpooled.buffer(4 + size).writeInt(size);
        for (int i = 0; i < size; i++) {
            buf.writeByte(fill);
        }
        return buf;
    }

    @Test
    void cutsFramesAcrossReadsAndAccountsTheirBytesUntilReleased() {
        RequestMemoryPool memory = new RequestMemoryPool(1 << 20);
        EmbeddedChannel channel = channel(memory, 1 << 20);
        ByteBuf two = Unpooled.wrappedBuffer(frame(10, 1), frame(3000, 2));
        channel.writeInbound(two.readRetainedSlice(7));
        assertTrue(frames.isEmpty());
        assertEquals(3, memory.usedBytes(), "only the bytes that arrived are held");
        channel.writeInbound(two.readRetainedSlice(two.readableBytes()));
        two.release();
        assertEquals(2, frames.size());
        assertEquals(10, frames.get(0).bytes().readableBytes());
        assertEquals(3000, frames.get(1).bytes().readableBytes());
        assertEquals(2, frames.get(1).bytes().getByte(2999));
        assertEquals(3010, memory.usedBytes());
        frames.forEach(InboundFrame::release);
        frames.forEach(InboundFrame::release);
        assertEquals(0, memory.usedBytes(), "released once, however often asked");
        channel.finishAndReleaseAll();
    }

    @Test
    void aFrameDribbledOneByteAtATimeArrivesWholeAndIsChargedItsBytes() {
        RequestMemoryPool memory = new RequestMemoryPool(1 << 20);
        EmbeddedChannel channel = channel(memory, 1 << 20);
        ByteBuf dribble = Unpooled.wrappedBuffer(frame(5000, 7), frame(70_000, 8));
        while (dribble.readableBytes() > 60_000) {
            channel.writeInbound(dribble.readRetainedSlice(1));
        }
        channel.writeInbound(dribble);
        assertEquals(2, frames.size());
        assertEquals(5000, frames.get(0).bytes().readableBytes());
        assertEquals(7, frames.get(0).bytes().getByte(4999));
        assertEquals(70_000, frames.get(1).bytes().readableBytes());
        assertEquals(8, frames.get(1).bytes().getByte(0));
        assertEquals(8, frames.get(1).bytes().getByte(69_999));
        assertEquals(75_000, memory.usedBytes());
        frames.forEach(InboundFrame::release);
        assertEquals(0, memory.usedBytes());
        channel.finishAndReleaseAll();
    }

    @Test
    void aLargeFrameArrivingInSmallReadsIsKeptInFewParts() {
        RequestMemoryPool memory = new RequestMemoryPool(1 << 30);
        EmbeddedChannel channel = channel(memory, 1 << 30);
        ByteBuf big = frame(1 << 20, 5);
        while (big.isReadable()) {
            ByteBuf read = Unpooled.directBuffer(64); // full 64-byte reads, as a shrunk adaptive guess would make
            read.writeBytes(big, Math.min(64, big.readableBytes()));
            channel.writeInbound(read);
            if (big.readableBytes() == 1000) {
                int count = channel.pipeline().get(RequestFrameDecoder.class).partCount();
                assertTrue(count < 40, "16,384 reads of 64 bytes kept as " + count + " parts");
            }
        }
        big.release();
        assertEquals(1, frames.size());
        assertEquals(5, frames.get(0).bytes().getByte((1 << 20) - 1));
        frames.forEach(InboundFrame::release);
        assertEquals(0, memory.usedBytes());
        channel.finishAndReleaseAll();
    }

    @Test
    void stopsReadingWhileThePoolIsUsedUpAndResumesWhenMemoryComesBack() {
        RequestMemoryPool memory = new RequestMemoryPool(100);
        EmbeddedChannel channel = channel(memory, 1 << 20);
        channel.writeInbound(frame(150, 1));
        assertEquals(1, frames.size(), "a frame larger than the pool gets in while anything is left");
        channel.writeInbound(frame(10, 2));
        assertEquals(1, frames.size());
        assertFalse(channel.config().isAutoRead(), "reading pauses while the pool is used up");
        frames.get(0).release();
        channel.runPendingTasks();
        assertEquals(2, frames.size());
        assertTrue(channel.config().isAutoRead());
        frames.get(1).release();
        assertEquals(0, memory.usedBytes());
        channel.finishAndReleaseAll();
    }

    @Test
    void aFrameUnderWayOverdrawsAFullPoolSoIncompleteFramesCannotDeadlock() {
        RequestMemoryPool memory = new RequestMemoryPool(100);
        EmbeddedChannel first = channel(memory, 1 << 20);
        EmbeddedChannel second = channel(memory, 1 << 20);
        ByteBuf a = frame(200, 1);
        ByteBuf b = frame(200, 2);
        first.writeInbound(a.readRetainedSlice(54));
        second.writeInbound(b.readRetainedSlice(54));
        assertEquals(100, memory.usedBytes(), "both frames half here: the pool is full of incomplete frames");
        first.writeInbound(a.readRetainedSlice(100));
        assertEquals(200, memory.usedBytes(), "the first to need more memory overdraws");
        second.writeInbound(b.readRetainedSlice(100));
        assertFalse(second.config().isAutoRead(), "one overdraft at a time: the second waits");
        first.writeInbound(a);
        assertEquals(1, frames.size(), "the overdrawing frame finishes");
        second.runPendingTasks();
        assertTrue(second.config().isAutoRead(), "its overdraft ended, the second may overdraw in turn");
        second.writeInbound(b);
        assertEquals(2, frames.size());
        frames.forEach(InboundFrame::release);
        assertEquals(0, memory.usedBytes());
        first.finishAndReleaseAll();
        second.finishAndReleaseAll();
    }

    @Test
    void aClosedConnectionGivesBackTheBytesOfItsIncompleteFrame() {
        RequestMemoryPool memory = new RequestMemoryPool(1 << 20);
        EmbeddedChannel channel = channel(memory, 1 << 20);
        ByteBuf partial = frame(100_000, 3);
        channel.writeInbound(partial.readRetainedSlice(5_004));
        partial.release();
        assertEquals(5_000, memory.usedBytes());
        channel.close();
        assertEquals(0, memory.usedBytes());
        assertNull(channel.readInbound());
    }

    @Test
    void closesOnASizeAboveTheMaximumWithoutBufferingIt() {
        RequestMemoryPool memory = new RequestMemoryPool(1 << 20);
        EmbeddedChannel channel = channel(memory, 1024);
        channel.writeInbound(Unpooled.buffer().writeInt(1025).writeZero(100));
        assertFalse(channel.isOpen());
        assertEquals(0, memory.usedBytes());
        assertTrue(frames.isEmpty());
    }

    @Test
    void aConnectionStarvedLongerThanTheStallLimitGetsTheMemoryOfFramesBegunBeforeItsWait() {
        RequestMemoryPool memory = new RequestMemoryPool(100, 10_000, nanos::get);
        EmbeddedChannel stalled = channel(memory, 1 << 20);
        EmbeddedChannel waiting = channel(memory, 1 << 20);
        ByteBuf half = frame(1000, 1);
        stalled.writeInbound(half.readRetainedSlice(104));
        half.release();
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(60));
        memory.closeStalledFrames();
        stalled.runPendingTasks();
        assertTrue(stalled.isOpen(), "nobody waits for memory: a slow sender harms nobody");

        nanos.addAndGet(1);
        waiting.writeInbound(frame(10, 2));
        assertFalse(waiting.config().isAutoRead(), "the pool is full of the stalled frame");
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(10));
        memory.closeStalledFrames();
        stalled.runPendingTasks();
        assertTrue(stalled.isOpen(), "10 s of waiting is within the limit");
        nanos.addAndGet(1);
        memory.closeStalledFrames();
        stalled.runPendingTasks();
        assertFalse(stalled.isOpen(), "its frame held the memory another waited for too long");
        waiting.runPendingTasks();
        assertEquals(1, frames.size(), "the waiting connection gets the memory back");
        assertTrue(waiting.config().isAutoRead());
        frames.forEach(InboundFrame::release);
        assertEquals(0, memory.usedBytes());
        waiting.finishAndReleaseAll();
    }

    @Test
    void framesBegunAfterTheStarvedConnectionStartedWaitingAreLeftAlone() {
        RequestMemoryPool memory = new RequestMemoryPool(100, 10_000, nanos::get);
        EmbeddedChannel waiting = channel(memory, 1 << 20);
        EmbeddedChannel later = channel(memory, 1 << 20);
        ByteBuf big = frame(1000, 1);
        waiting.writeInbound(big.readRetainedSlice(50));
        assertTrue(memory.tryReserve(60)); // whatever holds the rest of the pool
        assertTrue(memory.tryOverdraft(this, 0)); // and the overdraft
        waiting.writeInbound(big.readRetainedSlice(50));
        assertFalse(waiting.config().isAutoRead(), "waits, mid-frame, for memory");
        nanos.addAndGet(1);
        memory.release(30);
        later.writeInbound(frame(500, 2).readRetainedSlice(50));
        waiting.runPendingTasks();
        assertFalse(waiting.config().isAutoRead(), "woken, but the memory went to a frame begun later");
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(30));
        memory.closeStalledFrames();
        later.runPendingTasks();
        waiting.runPendingTasks();
        assertTrue(later.isOpen(), "its frame began after the wait did");
        assertTrue(waiting.isOpen(), "the starved connection is not its own culprit");
        big.release();
        waiting.finishAndReleaseAll();
        later.finishAndReleaseAll();
    }

    @Test
    void aStalledSenderThatWaitedFirstDoesNotShelterTheOthersFromALaterStarvedClient() {
        RequestMemoryPool memory = new RequestMemoryPool(100, 10_000, nanos::get);
        EmbeddedChannel first = channel(memory, 1 << 20);
        EmbeddedChannel second = channel(memory, 1 << 20);
        EmbeddedChannel client = channel(memory, 1 << 20);
        ByteBuf a = frame(1000, 1);
        ByteBuf b = frame(1000, 2);
        first.writeInbound(a.readRetainedSlice(54));
        assertTrue(memory.tryReserve(60), "whatever holds the rest of the pool");
        assertTrue(memory.tryOverdraft(this, 0), "and the overdraft");
        first.writeInbound(a.readRetainedSlice(10));
        assertFalse(first.config().isAutoRead(), "the first stalled sender waits, mid-frame, first");
        nanos.addAndGet(1);
        memory.release(20);
        second.writeInbound(b.readRetainedSlice(50)); // begins its frame after the first started waiting
        first.runPendingTasks();
        assertFalse(first.config().isAutoRead(), "woken, the first finds the pool full again");
        nanos.addAndGet(1);
        client.writeInbound(frame(10, 3));
        assertFalse(client.config().isAutoRead(), "the well-behaved client waits last");
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(11));
        memory.closeStalledFrames();
        first.runPendingTasks();
        second.runPendingTasks();
        assertFalse(first.isOpen());
        assertFalse(second.isOpen(), "begun after the first waited, but before the client did");
        memory.endOverdraft(this);
        client.runPendingTasks();
        assertEquals(1, frames.size(), "the client is served");
        frames.forEach(InboundFrame::release);
        a.release();
        b.release();
        client.finishAndReleaseAll();
    }

    @Test
    void readsShrinkToWhatIsLeftOfThePoolExceptForTheOverdraft() {
        RequestMemoryPool memory = new RequestMemoryPool(100_000);
        Object connection = new Object();
        assertEquals(65_536, memory.readBytes(connection, 65_536));
        assertTrue(memory.tryReserve(60_000));
        assertEquals(40_000, memory.readBytes(connection, 65_536));
        assertTrue(memory.tryReserve(40_000));
        assertEquals(RequestMemoryPool.MIN_READ_BYTES, memory.readBytes(connection, 65_536),
                "a used-up pool still lets a connection read a size prefix and learn it must wait");
        assertTrue(memory.tryOverdraft(connection, 10));
        assertEquals(65_536, memory.readBytes(connection, 65_536), "the overdraft finishes its frame at full speed");
    }
}
