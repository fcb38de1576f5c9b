package io.kraft.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that connects from the moment a node starts, as orchestrators' init jobs do, is never answered from a
 * broker that is not ready: every Metadata answer lists a broker and names a controller, on a first start and on a
 * restart with data.
 */
class ClientListenerReadinessTest {
    private static final short METADATA_VERSION = 12;

    @TempDir
    Path dir;

    @Test
    void everyMetadataAnswerFromTheFirstConnectionListsABrokerAndAController() throws Exception {
        try (TestNode node = new TestNode(dir, Map.of())) {
            probeWhileStarting(node);
            node.createTopic("orders", 3, Map.of());
            node.stop();
            probeWhileStarting(node);
        }
    }

    /** Starts {@code node} while a probe connects and asks for Metadata in a tight loop; checks every answer. */
    private static void probeWhileStarting(TestNode node) throws Exception {
        List<MetadataResponse> answers = new CopyOnWriteArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean started = new AtomicBoolean();
        Thread probe = new Thread(() -> {
            int correlationId = 0;
            // Until a few answers came after start() returned: the window before readiness is fully probed.
            while (!started.get() || answers.size() < 5) {
                try {
                    answers.add(askMetadata(node.port(), correlationId++));
                } catch (IOException refusedOrClosed) {
                    // nothing listens yet: try again almost at once, leaving the cores to the starting node
                    sleepBriefly();
                } catch (RuntimeException e) {
                    failures.add(e);
                    return;
                }
            }
        }, "metadata-probe");
        probe.start();
        node.start();
        started.set(true);
        probe.join(TimeUnit.MILLISECONDS.convert(60, TimeUnit.SECONDS));
        assertTrue(failures.isEmpty(), failures.toString());
        assertTrue(answers.size() >= 5, "answers: " + answers.size());
        for (MetadataResponse answer : answers) {
            assertEquals(List.of(1), answer.brokers().stream().map(b -> b.id()).toList(), answer.toString());
            assertEquals(1, answer.data().controllerId(), answer.toString());
        }
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static MetadataResponse askMetadata(int port, int correlationId) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 1_000);
            socket.setSoTimeout(30_000);
            RequestHeader header = new RequestHeader(ApiKeys.METADATA, METADATA_VERSION, "readiness-probe",
                    correlationId);
            MetadataRequest request = new MetadataRequest.Builder(new MetadataRequestData().setTopics(null)
                    .setAllowAutoTopicCreation(false)).build(METADATA_VERSION);
            ByteBuffer frame = request.serializeWithHeader(header);
            OutputStream out = socket.getOutputStream();
            out.write(ByteBuffer.allocate(4).putInt(frame.remaining()).array());
            out.write(frame.array(), frame.arrayOffset() + frame.position(), frame.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            return (MetadataResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(response), header);
        }
    }
}
