package io.kraft.server.fuzz;

import io.kraft.broker.protocol.FuzzFrames;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One fuzzing connection to the Kafka listener: writes {@link FuzzFrames} one after another, reads and drops
 * whatever comes back, and opens a new connection whenever the broker closes this one (as it must after a frame it
 * cannot parse). Closing resets the connection, so a million of them leave no TIME_WAIT behind.
 */
final class WireFuzzer implements AutoCloseable {
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long REACTION_MS = 5;

    private final InetSocketAddress address;
    private final FuzzFrames frames;
    private final ByteBuffer sink = ByteBuffer.allocateDirect(64 << 10);
    private final Map<FuzzFrames.Kind, Long> sentByKind = new EnumMap<>(FuzzFrames.Kind.class);
    private SocketChannel channel;
    private long connections;
    private long stalls;

    WireFuzzer(InetSocketAddress address, Random random) {
        this.address = address;
        this.frames = new FuzzFrames(random);
    }

    /** Sends one frame (reconnecting first if the broker closed the connection). */
    void sendOne() throws IOException {
        FuzzFrames.Frame frame = frames.next();
        if (channel == null) {
            connect();
        }
        ByteBuffer bytes = frame.bytes();
        long start = System.nanoTime();
        try {
            while (bytes.hasRemaining()) {
                if (channel.write(bytes) == 0) {
                    if (!drain()) {
                        break;
                    }
                    if (System.nanoTime() - start > STALL_NANOS) {
                        stalls++; // the broker stopped reading us (back-pressure): start over elsewhere
                        reset();
                        break;
                    }
                    Thread.onSpinWait();
                }
            }
            if (channel != null && !drain()) {
                reset();
            } else if (channel != null && frame.kind() != FuzzFrames.Kind.VALID_HOSTILE_VALUES) {
                awaitReaction();
            }
        } catch (IOException e) {
            reset();
        }
        sentByKind.merge(frame.kind(), 1L, Long::sum);
    }

    /**
     * After a frame the broker may refuse, waits (up to {@value #REACTION_MS} ms) for an answer or the close, so the
     * next frames go to a connection that reads them rather than into one already closed.
     */
    private void awaitReaction() throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REACTION_MS);
        while (System.nanoTime() < deadline) {
            int read = channel.read(sink.clear());
            if (read < 0) {
                reset();
                return;
            }
            if (read > 0) {
                drain();
                return;
            }
            Thread.onSpinWait();
        }
    }

    /** Reads what the broker answered; false once it closed the connection. */
    private boolean drain() throws IOException {
        while (true) {
            int read = channel.read(sink.clear());
            if (read < 0) {
                return false;
            }
            if (read == 0) {
                return true;
            }
        }
    }

    private void connect() throws IOException {
        channel = SocketChannel.open();
        channel.setOption(StandardSocketOptions.SO_LINGER, 0);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.connect(address);
        channel.configureBlocking(false);
        connections++;
    }

    private void reset() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // already gone
            }
            channel = null;
        }
    }

    Map<FuzzFrames.Kind, Long> sentByKind() {
        return Map.copyOf(sentByKind);
    }

    long connections() {
        return connections;
    }

    long stalls() {
        return stalls;
    }

    int cases() {
        return frames.cases();
    }

    @Override
    public void close() {
        reset();
    }
}
