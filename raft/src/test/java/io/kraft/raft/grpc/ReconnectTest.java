package io.kraft.raft.grpc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.RaftMessage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A voter that comes back after a long stop is reachable at the next message: its peers' channels do not sit out
 * gRPC's growing reconnect backoff (seconds, up to two minutes) failing every message meanwhile.
 */
class ReconnectTest {
    private static final int MESSAGE_INTERVAL_MS = 50;

    @Test
    void aPeerThatStartsLateIsReachedAtOnceDespiteEarlierFailedConnects() throws Exception {
        int port = freePort();
        Map<Integer, InetSocketAddress> voters = Map.of(1, new InetSocketAddress("localhost", freePort()),
                2, new InetSocketAddress("localhost", port));
        GrpcRaftTransport sender = new GrpcRaftTransport(1, "cluster", voters, -1, 2_000);
        sender.start(message -> { });
        GrpcRaftTransport late = new GrpcRaftTransport(2, "cluster", voters, port, 2_000);
        try {
            // Peer 2 is down long enough for gRPC's backoff to grow past a second several times over.
            for (int i = 0; i < 3_000 / MESSAGE_INTERVAL_MS; i++) {
                sender.send(vote(i));
                Thread.sleep(MESSAGE_INTERVAL_MS);
            }
            CountDownLatch received = new CountDownLatch(1);
            late.start(message -> {
                if (message instanceof RaftMessage.VoteRequest) {
                    received.countDown();
                }
            });
            int sent = 0;
            while (!received.await(MESSAGE_INTERVAL_MS, TimeUnit.MILLISECONDS) && sent < 200) {
                sender.send(vote(1_000 + sent++));
            }
            // One message may still find the channel failed (it resets the backoff); the next one connects. Without
            // the reset the channel sits out a backoff of seconds: 40 messages and more.
            assertTrue(sent <= 15, "peer 2 was reached only after " + sent + " messages");
        } finally {
            sender.close();
            late.close();
        }
    }

    private static RaftMessage.VoteRequest vote(int epoch) {
        return new RaftMessage.VoteRequest(1, 2, epoch, 0, 0, false);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
