package io.kraft.server.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.requests.InitProducerIdResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** InitProducerId over a raw socket at v0 and v5: ids stay unique across a restart of the node. */
class ProducerIdEndToEndTest {
    @TempDir
    Path dir;

    static InitProducerIdResponseData init(WireClient client, short version, String transactionalId,
                                                   long producerId, short epoch) throws Exception {
        InitProducerIdResponse response = client.send(new InitProducerIdRequest.Builder(new InitProducerIdRequestData()
                .setTransactionalId(transactionalId).setTransactionTimeoutMs(60_000)
                .setProducerId(producerId).setProducerEpoch(epoch)).build(version));
        return response.data();
    }

    static InitProducerIdResponseData newProducer(WireClient client, short version) throws Exception {
        InitProducerIdResponseData data = init(client, version, null, -1, (short) -1);
        assertEquals(Errors.NONE.code(), data.errorCode());
        assertEquals(0, data.producerEpoch());
        return data;
    }

    @Test
    void idsAreNeverHandedOutTwiceNotEvenAcrossARestart() throws Exception {
        Set<Long> ids = new HashSet<>();
        try (TestNode node = new TestNode(dir, Map.of()).start()) {
            try (WireClient client = new WireClient(node.port())) {
                for (int i = 0; i < 20; i++) {
                    assertTrue(ids.add(newProducer(client, (short) (i % 2 == 0 ? 0 : 5)).producerId()));
                }
            }
            node.restart();
            try (WireClient client = new WireClient(node.port())) {
                for (int i = 0; i < 20; i++) {
                    assertTrue(ids.add(newProducer(client, (short) 5).producerId()), "an id reused after restart");
                }
            }
        }
        assertEquals(40, ids.size());
    }
}
