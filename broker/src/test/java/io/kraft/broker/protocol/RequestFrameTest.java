package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiVersionsResponse;
import io.kraft.storage.errors.Errors;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Request and response frames of every API and version agree with Kafka's; bad frames end in one RequestParseException. */
class RequestFrameTest {
    private static final int FRAMES = 5;
    private final ApiVersionsTable table = ApiVersionsTable.allDeclared();

    /** A request frame (without the int32 size) as a Kafka client sends it. */
    static ByteBuffer kafkaFrame(ApiKey api, short version, int correlationId, String clientId, Message body) {
        RequestHeaderData header = new RequestHeaderData().setRequestApiKey(api.id()).setRequestApiVersion(version)
                .setCorrelationId(correlationId).setClientId(clientId);
        ByteBuffer headerBytes = KafkaOracle.write(header, ApiKeys.forId(api.id()).requestHeaderVersion(version));
        ByteBuffer bodyBytes = KafkaOracle.write(body, version);
        return ByteBuffer.allocate(headerBytes.remaining() + bodyBytes.remaining()).put(headerBytes).put(bodyBytes).flip();
    }

    private static String randomClientId(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> "";
            default -> "client-" + KafkaOracle.randomString(random);
        };
    }

    @TestFactory
    Stream<DynamicTest> kafkasRequestFramesParseIntoBodiesThatReserialiseToKafkasBytes() {
        return ProtocolCase.each(ProtocolCase::request, c -> {
            Random random = c.random("kafkaFrames");
            short v = c.version();
            for (int i = 0; i < FRAMES; i++) {
                org.apache.kafka.common.protocol.ApiMessage body = KafkaOracle.randomMessage(c, random);
                int correlationId = random.nextInt();
                String clientId = randomClientId(random);
                ApiRequest<ApiMessage> parsed = RequestFrame.parse(kafkaFrame(c.api(), v, correlationId, clientId, body), table);
                assertSame(c.api(), parsed.api(), c::where);
                assertEquals(v, parsed.version(), c::where);
                assertEquals(c.api().id(), parsed.header().apiKey(), c::where);
                assertEquals(correlationId, parsed.correlationId(), c::where);
                assertEquals(clientId, parsed.header().clientId(), c::where);
                assertEquals(ApiKeys.forId(c.api().id()).requestHeaderVersion(v), parsed.header().headerVersion(), c::where);
                assertSame(c.newMessage().getClass(), parsed.body().getClass(), c::where);
                SameValues.assertSame(c.spec(), v, parsed.body(), body);
                assertEquals(KafkaOracle.write(body, v), parsed.body().toBuffer(v), () -> c.where() + " body re-serialises differently");
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> ourRequestFramesAreReadByKafka() {
        return ProtocolCase.each(ProtocolCase::request, c -> {
            Random random = c.random("ourRequestFrames");
            short v = c.version();
            for (int i = 0; i < FRAMES; i++) {
                ApiMessage body = OurRandom.message(c, random);
                int correlationId = random.nextInt();
                String clientId = randomClientId(random);
                ByteBuffer frame = RequestFrame.toBuffer(correlationId, clientId, body, v);
                assertEquals(frame.remaining() - 4, frame.getInt(), () -> c.where() + " size prefix");
                ApiRequest<ApiMessage> ours = RequestFrame.parse(frame.duplicate(), table);
                assertEquals(body, ours.body(), c::where);
                assertEquals(clientId, ours.header().clientId(), c::where);

                ByteBufferAccessor kafka = new ByteBufferAccessor(frame);
                RequestHeaderData header = new RequestHeaderData(kafka, ApiKeys.forId(c.api().id()).requestHeaderVersion(v));
                assertEquals(c.api().id(), header.requestApiKey(), c::where);
                assertEquals(v, header.requestApiVersion(), c::where);
                assertEquals(correlationId, header.correlationId(), c::where);
                assertEquals(clientId, header.clientId(), c::where);
                SameValues.assertSame(c.spec(), v, body, KafkaOracle.read(c, frame.slice()));
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> responseFramesCarryTheHeaderVersionKafkaExpects() {
        return ProtocolCase.each(c -> !c.request(), c -> {
            Random random = c.random("responseFrames");
            short v = c.version();
            for (int i = 0; i < FRAMES; i++) {
                ApiMessage body = OurRandom.message(c, random);
                int correlationId = random.nextInt();
                ByteBuffer frame = ResponseFrame.toBuffer(c.api(), v, correlationId, body);
                assertEquals(frame.remaining(), ResponseFrame.frameSize(c.api(), v, body), c::where);
                assertEquals(frame.remaining() - 4, frame.getInt(), () -> c.where() + " size prefix");
                ByteBufferAccessor kafka = new ByteBufferAccessor(frame);
                ResponseHeaderData header = new ResponseHeaderData(kafka, ApiKeys.forId(c.api().id()).responseHeaderVersion(v));
                assertEquals(correlationId, header.correlationId(), c::where);
                SameValues.assertSame(c.spec(), v, body, KafkaOracle.read(c, frame.slice()));
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> everyTruncatedRequestFrameIsAMalformedRequest() {
        return ProtocolCase.each(ProtocolCase::request, c -> {
            ByteBuffer frame = kafkaFrame(c.api(), c.version(), 77, "client",
                    KafkaOracle.randomMessage(c, c.random("truncatedFrames")));
            for (int length = 0; length < frame.remaining(); length++) {
                ByteBuffer prefix = frame.duplicate().limit(length);
                int cut = length;
                RequestParseException e = assertThrows(RequestParseException.class, () -> RequestFrame.parse(prefix, table),
                        () -> c.where() + " cut at " + cut);
                assertInstanceOf(MalformedRequestException.class, e, () -> c.where() + " cut at " + cut);
                if (length >= 8) {
                    assertEquals(c.api().id(), e.apiKey(), c::where);
                    assertEquals(c.version(), e.apiVersion(), c::where);
                    assertEquals(77, e.correlationId(), c::where);
                }
            }
        });
    }

    @TestFactory
    Stream<DynamicTest> trailingBytesAfterAnyBodyAreMalformed() {
        return ProtocolCase.each(ProtocolCase::request, c -> {
            ByteBuffer good = kafkaFrame(c.api(), c.version(), 5, "c", KafkaOracle.randomMessage(c, c.random("trailing")));
            ByteBuffer padded = ByteBuffer.allocate(good.remaining() + 1).put(good.duplicate()).put((byte) 0).flip();
            MalformedRequestException e = assertThrows(MalformedRequestException.class,
                    () -> RequestFrame.parse(padded, table), c::where);
            assertTrue(e.getMessage().contains("1 bytes after its body"), () -> c.where() + ": " + e.getMessage());
            assertEquals(5, e.correlationId(), c::where);
            assertEquals("c", e.clientId(), c::where);
            assertSame(c.api(), RequestFrame.parse(good, table).api(), c::where);
        });
    }

    @TestFactory
    Stream<DynamicTest> corruptRequestFramesEndInARequestParseExceptionOnly() {
        return ProtocolCase.each(ProtocolCase::request, c -> {
            Random random = c.random("corruptFrames");
            ByteBuffer frame = kafkaFrame(c.api(), c.version(), 1, "fuzz", KafkaOracle.randomMessage(c, random));
            for (int i = 0; i < 20; i++) {
                ByteBuffer corrupt = ByteBuffer.allocate(frame.remaining()).put(frame.duplicate()).flip();
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    corrupt.put(random.nextInt(corrupt.remaining()), (byte) random.nextInt(256));
                }
                try {
                    RequestFrame.parse(corrupt, table);
                } catch (RequestParseException expected) {
                    // malformed, or an unknown key or version if the corruption hit the header
                } catch (RuntimeException | Error e) {
                    fail(c.where() + " corruption escaped as " + e, e);
                }
            }
        });
    }

    @Test
    void unsupportedApiVersionsVersionIsAnsweredWithV0AndTheSupportedRange() throws Exception {
        short ours = ApiKey.API_VERSIONS.acceptedVersions().highest();
        short future = (short) (ours + 1);
        // a client newer than us: the header names a version we do not know, the body is whatever it is
        ByteBuffer frame = kafkaFrame(ApiKey.API_VERSIONS, ours, 31, "java-client",
                new ApiVersionsRequestData().setClientSoftwareName("apache-kafka-java").setClientSoftwareVersion("4.4.0"));
        frame.putShort(2, future);
        UnsupportedApiVersionException e = assertThrows(UnsupportedApiVersionException.class,
                () -> RequestFrame.parse(frame, table));
        assertTrue(e.isApiVersionsRequest());
        assertEquals(31, e.correlationId());
        assertEquals("java-client", e.clientId());
        assertEquals(future, e.apiVersion());

        ApiVersionsResponse fallback = table.toApiVersionsResponse(Errors.UNSUPPORTED_VERSION);
        ByteBuffer response = ResponseFrame.toBuffer(ApiKey.API_VERSIONS, (short) 0, e.correlationId(), fallback);
        assertEquals(response.remaining() - 4, response.getInt());
        assertEquals(31, response.getInt(), "response header v0 is just the correlation id");
        ApiVersionsResponseData kafka = new ApiVersionsResponseData(new ByteBufferAccessor(response), (short) 0);
        assertFalse(response.hasRemaining());
        assertEquals(Errors.UNSUPPORTED_VERSION.code(), kafka.errorCode());
        assertEquals(table.apis().size(), kafka.apiKeys().size());
        for (ApiKey api : table.apis()) {
            ApiVersionsResponseData.ApiVersion advertised = kafka.apiKeys().find(api.id());
            assertEquals(api.advertisedVersions().lowest(), advertised.minVersion(), api.apiName());
            assertEquals(api.advertisedVersions().highest(), advertised.maxVersion(), api.apiName());
        }
        assertEquals(0, kafka.apiKeys().find(ApiKey.PRODUCE.id()).minVersion(), "Produce advertises 0");
    }

    @Test
    void advertisedButNotAcceptedProduceVersionIsUnsupported() {
        ByteBuffer frame = ByteBuffer.allocate(16).putShort(ApiKey.PRODUCE.id()).putShort((short) 2).putInt(8)
                .putShort((short) 1).put((byte) 'c').put(new byte[5]).flip();
        UnsupportedApiVersionException e = assertThrows(UnsupportedApiVersionException.class,
                () -> RequestFrame.parse(frame, table));
        assertSame(ApiKey.PRODUCE, e.api());
        assertFalse(e.isApiVersionsRequest());
        assertTrue(e.advertisedVersions().contains((short) 2));
        assertFalse(e.acceptedVersions().contains((short) 2));
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
    void framesTooShortForAHeaderAreMalformed() {
        for (int size = 0; size < 8; size++) {
            ByteBuffer frame = ByteBuffer.allocate(size);
            MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> RequestFrame.parse(frame, table));
            assertTrue(e.getMessage().contains("too short"), e.getMessage());
            assertEquals(-1, e.correlationId());
        }
    }

    @Test
    void aTruncatedHeaderIsMalformedAndNamesTheApi() {
        // Metadata v12 (header v2): the client id claims 20 bytes but the frame ends after 3
        ByteBuffer frame = ByteBuffer.allocate(13).putShort(ApiKey.METADATA.id()).putShort((short) 12).putInt(6)
                .putShort((short) 20).put(new byte[] {'a', 'b', 'c'}).flip();
        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> RequestFrame.parse(frame, table));
        assertEquals(ApiKey.METADATA.id(), e.apiKey());
        assertEquals(12, e.apiVersion());
        assertEquals(6, e.correlationId());
        assertNull(e.clientId());
    }
}
