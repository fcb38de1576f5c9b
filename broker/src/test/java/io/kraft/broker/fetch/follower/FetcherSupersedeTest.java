package io.kraft.broker.fetch.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kraft.broker.StandaloneBroker;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.RequestHeader;
import io.kraft.broker.protocol.message.FetchRequest;
import io.kraft.broker.quota.QuotaWindows;
import io.kraft.broker.quota.ReplicationQuota;
import io.kraft.broker.replica.Partition;
import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.broker.network.InterBrokerSecurity;
import io.kraft.storage.log.TopicPartition;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fetcher whose request sits in the leader's purgatory gains a partition (a leader change moved it here): it
 * abandons that request and fetches the new partition at once, in a full request that restarts the session, instead
 * of waiting out the long poll. The leader here never answers, so only the abandonment can bring the second request.
 */
class FetcherSupersedeTest {
    private static final int LEADER = 2;
    private static final short FETCH_VERSION = ReplicaFetcherThread.FETCH_VERSION;

    @TempDir
    Path logDir;

    private StandaloneBroker broker;
    private Partition first;
    private Partition second;
    private SilentLeader leader;
    private ReplicaFetcherThread fetcher;
    private final FollowerFetchStats stats = new FollowerFetchStats();

    @BeforeEach
    void follow() throws Exception {
        broker = new StandaloneBroker(logDir, Map.of());
        UUID topicId = broker.createTopic("t", UUID.randomUUID(), 2, Map.of(), List.of(1, LEADER), List.of(1, LEADER));
        broker.moveLeader(topicId, 0, LEADER);
        broker.moveLeader(topicId, 1, LEADER);
        first = broker.replicaManager().partition(new TopicPartition("t", 0)).orElseThrow();
        second = broker.replicaManager().partition(new TopicPartition("t", 1)).orElseThrow();
        leader = new SilentLeader();
        fetcher = new ReplicaFetcherThread("test-fetcher", LEADER, 1, ReplicationConfig.defaults(),
                id -> Optional.of(leader.address()), InterBrokerSecurity.PLAINTEXT, () -> 1L,
                System::currentTimeMillis, stats, new ReplicationQuota(QuotaWindows.DEFAULT, System::currentTimeMillis));
    }

    @AfterEach
    void close() throws IOException {
        fetcher.shutdown();
        leader.close();
        broker.close();
    }

    @Test
    void aPartitionAddedDuringALongPollIsFetchedAtOnceInAFullRequest() throws Exception {
        fetcher.addPartition(first, first.leaderEpoch());
        fetcher.start();
        FetchRequest opening = leader.next();
        assertEquals(Set.of(0), partitions(opening));
        assertEquals(0, opening.sessionEpoch(), "the first request opens a session");

        fetcher.addPartition(second, second.leaderEpoch());
        FetchRequest after = leader.next();
        assertNotNull(after, "the added partition waits for the unanswered fetch");
        assertEquals(Set.of(0, 1), partitions(after));
        assertEquals(0, after.sessionEpoch(), "the abandoned request's epoch is unknown: a full request restarts");
        assertEquals(1, stats.superseded());
        assertEquals(2, leader.connections(), "the abandoned request's connection is closed, a new one opened");
    }

    @Test
    void addingAPartitionAgainInTheSameEpochKeepsTheFetchInFlight() throws Exception {
        fetcher.addPartition(first, first.leaderEpoch());
        fetcher.addPartition(second, second.leaderEpoch());
        fetcher.start();
        assertEquals(Set.of(0, 1), partitions(leader.next()));

        fetcher.addPartition(second, second.leaderEpoch());
        assertNull(leader.requests.poll(300, TimeUnit.MILLISECONDS), "nothing new to ask for");
        assertEquals(0, stats.superseded());
    }

    private static Set<Integer> partitions(FetchRequest request) {
        Set<Integer> named = new TreeSet<>();
        request.topics().forEach(topic -> topic.partitions().forEach(p -> named.add(p.partition())));
        return named;
    }

    /** A leader that reads Fetch requests and answers none, as one holding them in its purgatory. */
    private static final class SilentLeader implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final BlockingQueue<FetchRequest> requests = new LinkedBlockingQueue<>();
        private final List<Socket> accepted = new CopyOnWriteArrayList<>();

        SilentLeader() throws IOException {
            Thread acceptor = new Thread(this::accept, "silent-leader");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        InetSocketAddress address() {
            return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
        }

        /** The next request, waiting generously: the machine may be loaded. */
        FetchRequest next() throws InterruptedException {
            return requests.poll(15, TimeUnit.SECONDS);
        }

        int connections() {
            return accepted.size();
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    accepted.add(socket);
                    Thread reader = new Thread(() -> read(socket), "silent-leader-reader");
                    reader.setDaemon(true);
                    reader.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void read(Socket socket) {
            try (DataInputStream in = new DataInputStream(socket.getInputStream())) {
                while (true) {
                    byte[] frame = new byte[in.readInt()];
                    in.readFully(frame);
                    ByteBuffer buffer = ByteBuffer.wrap(frame);
                    RequestHeader.read(buffer, ApiKey.FETCH.requestHeaderVersion(FETCH_VERSION));
                    FetchRequest request = new FetchRequest();
                    request.read(buffer, FETCH_VERSION);
                    requests.add(request);
                }
            } catch (IOException e) {
                // The fetcher closed the connection.
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }
}
