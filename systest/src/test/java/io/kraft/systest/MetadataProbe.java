package io.kraft.systest;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Asks one broker, and only that one, for its view of the cluster with a single Metadata request over a fresh
 * socket. Unlike the Admin client, which sends to whichever broker it likes, it cannot get stuck on a paused broker
 * elsewhere in the cluster, so it can watch leadership move while another broker is frozen.
 */
final class MetadataProbe {
    private static final short VERSION = 12;
    private static final int TIMEOUT_MS = 3_000;

    /** One broker's answer: the brokers it lists (the unfenced ones) and each partition's leader (-1 for none). */
    record View(Set<Integer> liveBrokers, Map<Integer, Integer> leaders) {
    }

    private MetadataProbe() {
    }

    /** What the broker at {@code 127.0.0.1:port} says about {@code topic}. */
    static View ask(int port, String topic) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MS);
            socket.setSoTimeout(TIMEOUT_MS);
            RequestHeader header = new RequestHeader(ApiKeys.METADATA, VERSION, "systest-probe", 1);
            ByteBuffer request = new MetadataRequest.Builder(List.of(topic), false).build(VERSION)
                    .serializeWithHeader(header);
            OutputStream out = socket.getOutputStream();
            byte[] frame = new byte[4 + request.remaining()];
            ByteBuffer.wrap(frame).putInt(request.remaining()).put(request);
            out.write(frame);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            MetadataResponseData data = ((MetadataResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(response),
                    header)).data();
            Set<Integer> live = new TreeSet<>();
            for (MetadataResponseBroker broker : data.brokers()) {
                live.add(broker.nodeId());
            }
            Map<Integer, Integer> leaders = new TreeMap<>();
            for (MetadataResponseTopic answered : data.topics()) {
                for (MetadataResponsePartition partition : answered.partitions()) {
                    leaders.put(partition.partitionIndex(), partition.leaderId());
                }
            }
            return new View(live, leaders);
        }
    }
}
