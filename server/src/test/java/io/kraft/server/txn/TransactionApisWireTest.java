package io.kraft.server.txn;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddOffsetsToTxnResponseData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.EndTxnResponseData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transactional APIs on the wire at the versions clients other than Java 4.x use: librdkafka's v0 of
 * InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn and EndTxn, INVALID_PRODUCER_EPOCH in place of PRODUCER_FENCED
 * before KIP-588's versions, and the broker-to-broker AddPartitionsToTxn v4+ with verify_only (KIP-890 part 1).
 */
class TransactionApisWireTest {
    @TempDir
    Path dir;
    private TestNode node;
    private WireClient client;

    @BeforeEach
    void start() throws Exception {
        node = new TestNode(dir, Map.of()).start();
        node.createTopic("w", 3, Map.of());
        client = new WireClient(node.port());
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        node.close();
    }

    private ByteBufferAccessor call(ApiKeys api, int version, ApiMessage body) throws Exception {
        int id = client.send(api, (short) version, body);
        return client.receive(api, (short) version, id);
    }

    private InitProducerIdResponseData init(int version, String id) throws Exception {
        return new InitProducerIdResponseData(call(ApiKeys.INIT_PRODUCER_ID, version, new InitProducerIdRequestData()
                .setTransactionalId(id).setTransactionTimeoutMs(60_000).setProducerId(-1).setProducerEpoch((short) -1)),
                (short) version);
    }

    private short addPartitionV3AndBelow(int version, String id, InitProducerIdResponseData producer, int partition)
            throws Exception {
        AddPartitionsToTxnTopicCollection topics = new AddPartitionsToTxnTopicCollection();
        topics.add(new AddPartitionsToTxnTopic().setName("w").setPartitions(List.of(partition)));
        AddPartitionsToTxnResponseData response = new AddPartitionsToTxnResponseData(call(
                ApiKeys.ADD_PARTITIONS_TO_TXN, version, new AddPartitionsToTxnRequestData()
                        .setV3AndBelowTransactionalId(id).setV3AndBelowProducerId(producer.producerId())
                        .setV3AndBelowProducerEpoch(producer.producerEpoch()).setV3AndBelowTopics(topics)),
                (short) version);
        return response.resultsByTopicV3AndBelow().find("w").resultsByPartition().find(partition).partitionErrorCode();
    }

    private short endTxn(int version, String id, long producerId, short epoch, boolean commit) throws Exception {
        return new EndTxnResponseData(call(ApiKeys.END_TXN, version, new EndTxnRequestData().setTransactionalId(id)
                .setProducerId(producerId).setProducerEpoch(epoch).setCommitted(commit)), (short) version).errorCode();
    }

    private String state(String id) throws Exception {
        DescribeTransactionsResponseData.TransactionState state = new DescribeTransactionsResponseData(call(
                ApiKeys.DESCRIBE_TRANSACTIONS, 0, new DescribeTransactionsRequestData()
                        .setTransactionalIds(List.of(id))), (short) 0).transactionStates().get(0);
        return state.errorCode() == Errors.NONE.code() ? state.transactionState()
                : Errors.forCode(state.errorCode()).name();
    }

    @Test
    void version0OfEveryTransactionalApiAsLibrdkafkaUsesIt() throws Exception {
        InitProducerIdResponseData producer = init(0, "rd-1");
        assertEquals(Errors.NONE.code(), producer.errorCode());
        assertEquals(Errors.NONE.code(), addPartitionV3AndBelow(0, "rd-1", producer, 0));
        await().atMost(Duration.ofSeconds(30)).until(() -> new AddOffsetsToTxnResponseData(call(
                ApiKeys.ADD_OFFSETS_TO_TXN, 0, new AddOffsetsToTxnRequestData().setTransactionalId("rd-1")
                        .setProducerId(producer.producerId()).setProducerEpoch(producer.producerEpoch())
                        .setGroupId("rd-group")), (short) 0).errorCode() == Errors.NONE.code());
        assertEquals("Ongoing", state("rd-1"));
        assertEquals(Errors.NONE.code(), endTxn(0, "rd-1", producer.producerId(), producer.producerEpoch(), true));
        await().atMost(Duration.ofSeconds(30)).until(() -> state("rd-1").equals("CompleteCommit"));
        // A retried commit is answered NONE; an abort of the committed transaction is refused.
        assertEquals(Errors.NONE.code(), endTxn(0, "rd-1", producer.producerId(), producer.producerEpoch(), true));
        assertEquals(Errors.INVALID_TXN_STATE.code(),
                endTxn(0, "rd-1", producer.producerId(), producer.producerEpoch(), false));
        assertEquals("TRANSACTIONAL_ID_NOT_FOUND", state("nobody"));
    }

    @Test
    void aFencedEpochIsInvalidProducerEpochBeforeKip588sVersionsAndProducerFencedFrom() throws Exception {
        InitProducerIdResponseData old = init(0, "fenced");
        InitProducerIdResponseData current = init(4, "fenced");
        assertEquals(old.producerEpoch() + 1, current.producerEpoch());
        assertEquals(Errors.INVALID_PRODUCER_EPOCH.code(), addPartitionV3AndBelow(1, "fenced", old, 0));
        assertEquals(Errors.PRODUCER_FENCED.code(), addPartitionV3AndBelow(3, "fenced", old, 0));
        assertEquals(Errors.INVALID_PRODUCER_EPOCH.code(),
                endTxn(1, "fenced", old.producerId(), old.producerEpoch(), true));
        assertEquals(Errors.PRODUCER_FENCED.code(), endTxn(5, "fenced", old.producerId(), old.producerEpoch(), true));
        assertEquals(Errors.INVALID_PRODUCER_ID_MAPPING.code(),
                endTxn(5, "unknown-id", current.producerId(), current.producerEpoch(), true));
        assertEquals(Errors.INVALID_TXN_STATE.code(),
                endTxn(5, "fenced", current.producerId(), current.producerEpoch(), true), "no open transaction");
    }

    @Test
    void brokerToBrokerVerifyOnlyAnswersFromTheImageAndAddsNothing() throws Exception {
        InitProducerIdResponseData producer = init(5, "verify");
        assertEquals(Errors.NONE.code(), addPartitionV3AndBelow(3, "verify", producer, 1));
        AddPartitionsToTxnTopicCollection topics = new AddPartitionsToTxnTopicCollection();
        topics.add(new AddPartitionsToTxnTopic().setName("w").setPartitions(List.of(1, 2)));
        AddPartitionsToTxnTransactionCollection transactions = new AddPartitionsToTxnTransactionCollection();
        transactions.add(new AddPartitionsToTxnTransaction().setTransactionalId("verify")
                .setProducerId(producer.producerId()).setProducerEpoch(producer.producerEpoch()).setVerifyOnly(true)
                .setTopics(topics));
        AddPartitionsToTxnResponseData response = new AddPartitionsToTxnResponseData(call(
                ApiKeys.ADD_PARTITIONS_TO_TXN, 5, new AddPartitionsToTxnRequestData().setTransactions(transactions)),
                (short) 5);
        var results = response.resultsByTransaction().find("verify").topicResults().find("w").resultsByPartition();
        assertEquals(Errors.NONE.code(), results.find(1).partitionErrorCode());
        assertEquals(Errors.INVALID_TXN_STATE.code(), results.find(2).partitionErrorCode());
        ListTransactionsResponseData listed = new ListTransactionsResponseData(call(ApiKeys.LIST_TRANSACTIONS, 2,
                new ListTransactionsRequestData().setTransactionalIdPattern("([")), (short) 2);
        assertEquals(Errors.INVALID_REGULAR_EXPRESSION.code(), listed.errorCode());
        assertTrue(state("verify").equals("Ongoing"));
    }
}
