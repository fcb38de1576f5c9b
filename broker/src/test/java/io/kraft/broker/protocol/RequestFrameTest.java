package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.protocol.messages.ApiMessages;
import io.kraft.broker.protocol.schema.MessageWriter;
import io.kraft.storage.errors.Errors;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.junit.jupiter.api.Test;

/** Parsing whole request frames and writing whole response frames, incl. the ApiVersions v0 fallback. */
class RequestFrameTest {
    private final ApiVersionsTable table = ApiVersionsTable.allDeclared();

    /** A request frame (without the int32 size) as a Kafka client would send it. */
    static ByteBuffer kafkaFrame(ApiKey api, short version, int correlationId, String clientId, ApiMessage body) {
        RequestHeaderData header = new RequestHeaderData().setRequestApiKey(api.id()).setRequestApiVersion(version)
                .setCorrelationId(correlationId).setClientId(clientId);
        short headerVersion = org.apache.kafka.common.protocol.ApiKeys.forId(api.id()).requestHeaderVersion(version);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int headerSize = header.size(cache, headerVersion);
        int bodySize = body.size(cache, version);
        ByteBuffer buf = ByteBuffer.allocate(headerSize + bodySize);
        header.write(new ByteBufferAccessor(buf), cache, headerVersion);
        body.write(new ByteBufferAccessor(buf), cache, version);
        return buf.flip();
    }

    @Test
    void parsesEveryDeclaredApiAtEveryAcceptedVersion() throws Exception {
        Random random = new Random(42);
        for (ApiKey api : ApiMessages.declared()) {
            for (short v = api.acceptedVersions().lowest(); v <= api.acceptedVersions().highest(); v++) {
                ApiMessage body = KafkaOracle.randomMessage(api, true, v, random);
                ByteBuffer frame = kafkaFrame(api, v, 1000 + v, "client-" + v, body);
                ParsedRequest parsed = RequestFrame.parse(frame, table);
                assertEquals(api, parsed.api());
                assertEquals(v, parsed.version());
                assertEquals(1000 + v, parsed.correlationId());
                assertEquals("client-" + v, parsed.header().clientId());
                assertEquals(api.requestHeaderVersion(v), parsed.header().headerVersion());
                assertEquals(KafkaOracle.write(body, v),
                        MessageWriter.toBuffer(ApiMessages.requestSchema(api), parsed.body(), v), api + " v" + v);
            }
        }
    }

    @Test
    void unsupportedApiVersionsVersionIsAnsweredWithV0AndTheSupportedRange() throws Exception {
        short futureVersion = 5; // kafka-clients 4.4 knows ApiVersions v5, we accept up to 4
        ByteBuffer frame = kafkaFrame(ApiKey.API_VERSIONS, futureVersion, 31, "java-client",
                new ApiVersionsRequestData().setClientSoftwareName("apache-kafka-java").setClientSoftwareVersion("4.4.0"));
        UnsupportedApiVersionException e = assertThrows(UnsupportedApiVersionException.class,
                () -> RequestFrame.parse(frame, table));
        assertTrue(e.isApiVersionsRequest());
        assertEquals(31, e.correlationId());
        assertEquals("java-client", e.clientId());
        assertEquals(futureVersion, e.apiVersion());

        ByteBuffer response = ResponseFrame.toBuffer(ApiKey.API_VERSIONS, (short) 0, e.correlationId(),
                table.toApiVersionsResponse(Errors.UNSUPPORTED_VERSION));
        assertEquals(response.remaining() - 4, response.getInt());
        assertEquals(31, response.getInt(), "response header v0 is just the correlation id");
        ApiVersionsResponseData kafka = new ApiVersionsResponseData(new ByteBufferAccessor(response), (short) 0);
        assertEquals(35, kafka.errorCode());
        ApiVersionsResponseData.ApiVersion apiVersions = kafka.apiKeys().find(ApiKey.API_VERSIONS.id());
        assertEquals(0, apiVersions.minVersion());
        assertEquals(4, apiVersions.maxVersion());
        assertEquals(0, kafka.apiKeys().find(ApiKey.PRODUCE.id()).minVersion(), "Produce advertises 0");
        assertEquals(table.apis().size(), kafka.apiKeys().size());
    }

    @Test
    void advertisedButNotAcceptedProduceVersionIsUnsupported() {
        ByteBuffer frame = ByteBuffer.allocate(16).putShort(ApiKey.PRODUCE.id()).putShort((short) 2).putInt(8)
                .putShort((short) 1).put((byte) 'c').put(new byte[5]).flip();
        UnsupportedApiVersionException e = assertThrows(UnsupportedApiVersionException.class,
                () -> RequestFrame.parse(frame, table));
        assertEquals(ApiKey.PRODUCE, e.api());
        assertTrue(e.advertisedVersions().contains((short) 2));
        assertEquals("c", e.clientId());
        assertEquals(8, e.correlationId());
    }

    @Test
    void unknownApiKeysAreReportedWithTheCorrelationId() {
        for (short key : new short[] {4, 999, -1, Short.MAX_VALUE}) {
            ByteBuffer frame = ByteBuffer.allocate(10).putShort(key).putShort((short) 0).putInt(77).putShort((short) -1).flip();
            UnknownApiKeyException e = assertThrows(UnknownApiKeyException.class, () -> RequestFrame.parse(frame, table));
            assertEquals(key, e.apiKey());
            assertEquals(77, e.correlationId());
            assertNull(e.clientId());
        }
    }

    @Test
    void apisOutsideTheTableAreUnknown() {
        ApiVersionsTable onlyApiVersions = ApiVersionsTable.of(List.of(ApiKey.API_VERSIONS));
        ByteBuffer frame = kafkaFrame(ApiKey.METADATA, (short) 12, 1, "c", new MetadataRequestData());
        assertThrows(UnknownApiKeyException.class, () -> RequestFrame.parse(frame, onlyApiVersions));
    }

    @Test
    void shortFramesAndTrailingBytesAreMalformed() throws Exception {
        for (int size = 0; size < 8; size++) {
            ByteBuffer frame = ByteBuffer.allocate(size);
            assertInstanceOf(MalformedRequestException.class,
                    assertThrows(RequestParseException.class, () -> RequestFrame.parse(frame, table)));
        }
        ByteBuffer good = kafkaFrame(ApiKey.METADATA, (short) 12, 1, "c", new MetadataRequestData());
        ByteBuffer padded = ByteBuffer.allocate(good.remaining() + 1).put(good.duplicate()).put((byte) 0).flip();
        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> RequestFrame.parse(padded, table));
        assertTrue(e.getMessage().contains("1 bytes after its body"), e.getMessage());
        assertEquals(ApiKey.METADATA, RequestFrame.parse(good, table).api());
    }

    @Test
    void ourRequestFramesAreReadByKafkaAndByUs() throws Exception {
        Random random = new Random(7);
        for (short v = 0; v <= 13; v++) {
            var schema = ApiMessages.requestSchema(ApiKey.METADATA);
            var body = OurRandom.randomBody(schema, v, random);
            ByteBuffer frame = RequestFrame.toBuffer(ApiKey.METADATA, v, 99, "tool", body);
            assertEquals(frame.remaining() - 4, frame.getInt());
            ParsedRequest parsed = RequestFrame.parse(frame.duplicate(), table);
            assertEquals(body, parsed.body());
            var header = new RequestHeaderData(new ByteBufferAccessor(frame), ApiKey.METADATA.requestHeaderVersion(v));
            assertEquals(99, header.correlationId());
            assertEquals("tool", header.clientId());
            assertEquals(MessageWriter.toBuffer(schema, body, v),
                    KafkaOracle.write(new MetadataRequestData(new ByteBufferAccessor(frame), v), v));
        }
    }

    @Test
    void responseFramesCarryTheRightHeaderVersion() {
        ApiKey api = ApiKey.METADATA;
        var body = ApiMessages.responseSchema(api).newStruct();
        ByteBuffer flexible = ResponseFrame.toBuffer(api, (short) 12, 5, body);
        ByteBuffer classic = ResponseFrame.toBuffer(api, (short) 8, 5, body);
        assertEquals(flexible.remaining(), ResponseFrame.frameSize(api, (short) 12, body));
        assertEquals(5, flexible.getInt(4));
        assertEquals(0, flexible.get(8), "response header v1 ends with an empty tagged-field section");
        assertEquals(classic.remaining() - 4, classic.getInt(0));
        var kafka = new org.apache.kafka.common.message.MetadataResponseData(
                new ByteBufferAccessor(flexible.position(9)), (short) 12);
        assertEquals(-1, kafka.controllerId());
    }
}
