package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.broker.protocol.codec.MalformedMessageException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.junit.jupiter.api.Test;

/** Request headers v0-v2 and response headers v0-v1 against Kafka's, and the (api, version) → header version rule. */
class HeadersTest {

    private static ByteBuffer kafkaBytes(Message message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buf = ByteBuffer.allocate(message.size(cache, version));
        message.write(new ByteBufferAccessor(buf), cache, version);
        return buf.flip();
    }

    @Test
    void requestHeadersMatchKafkaInEveryVersion() {
        for (short hv = 1; hv <= 2; hv++) { // Kafka 4 dropped header v0; see requestHeaderV0HasNoClientId
            for (String clientId : new String[] {"producer-1", "", null, "klïent-ω"}) {
                RequestHeaderData kafka = new RequestHeaderData().setRequestApiKey((short) 3)
                        .setRequestApiVersion((short) 12).setCorrelationId(-77).setClientId(clientId);
                ByteBuffer expected = kafkaBytes(kafka, hv);
                RequestHeader ours = RequestHeader.read(expected.duplicate(), hv);
                assertEquals(new RequestHeader((short) 3, (short) 12, -77, clientId, hv), ours);
                ByteBuffer written = ByteBuffer.allocate(ours.sizeOf());
                ours.write(written);
                assertEquals(expected, written.flip(), "request header v" + hv + " client " + clientId);
            }
        }
    }

    @Test
    void requestHeaderV0HasNoClientId() {
        ByteBuffer bytes = ByteBuffer.allocate(8).putShort((short) 7).putShort((short) 0).putInt(42).flip();
        RequestHeader header = RequestHeader.read(bytes.duplicate(), (short) 0);
        assertEquals(new RequestHeader((short) 7, (short) 0, 42, null, (short) 0), header);
        assertEquals(8, header.sizeOf());
        ByteBuffer written = ByteBuffer.allocate(8);
        header.write(written);
        assertEquals(bytes, written.flip());
    }

    @Test
    void requestHeaderV2ClientIdKeepsItsInt16LengthAndUnknownTagsAreSkipped() {
        RequestHeaderData kafka = new RequestHeaderData().setRequestApiKey((short) 18)
                .setRequestApiVersion((short) 4).setCorrelationId(9).setClientId("abc");
        kafka.unknownTaggedFields().add(new org.apache.kafka.common.protocol.types.RawTaggedField(7, new byte[] {1, 2, 3}));
        ByteBuffer bytes = kafkaBytes(kafka, (short) 2);
        assertEquals(3, bytes.getShort(8), "client_id length is an int16 even in header v2");
        ByteBuffer in = bytes.duplicate();
        RequestHeader header = RequestHeader.read(in, (short) 2);
        assertEquals("abc", header.clientId());
        assertEquals(0, in.remaining(), "the unknown tagged field was skipped entirely");
    }

    @Test
    void responseHeadersMatchKafka() {
        for (short hv = 0; hv <= 1; hv++) {
            ByteBuffer expected = kafkaBytes(new ResponseHeaderData().setCorrelationId(123456), hv);
            ResponseHeader ours = new ResponseHeader(123456, hv);
            ByteBuffer written = ByteBuffer.allocate(ours.sizeOf());
            ours.write(written);
            assertEquals(expected, written.flip());
            assertEquals(ours, ResponseHeader.read(expected.duplicate(), hv));
        }
    }

    @Test
    void headerVersionRuleMatchesKafkaForEveryApiAndVersion() {
        for (ApiKey api : ApiKey.values()) {
            ApiKeys kafka = ApiKeys.forId(api.id());
            for (short v = api.advertisedVersions().lowest(); v <= api.advertisedVersions().highest(); v++) {
                if (v < kafka.oldestVersion()) {
                    continue; // Produce v0-2: advertised only, Kafka 4 has no schema for them
                }
                assertEquals(kafka.requestHeaderVersion(v), api.requestHeaderVersion(v), api + " v" + v + " request header");
                assertEquals(kafka.responseHeaderVersion(v), api.responseHeaderVersion(v), api + " v" + v + " response header");
            }
        }
    }

    @Test
    void apiVersionsAlwaysAnswersWithResponseHeaderV0() {
        for (short v = 0; v <= 4; v++) {
            assertEquals(0, ApiKey.API_VERSIONS.responseHeaderVersion(v));
        }
        assertEquals(2, ApiKey.API_VERSIONS.requestHeaderVersion((short) 3));
    }

    @Test
    void truncatedHeaderIsMalformed() {
        ByteBuffer bytes = ByteBuffer.allocate(10).putShort((short) 3).putShort((short) 1).putInt(5).putShort((short) 4).flip();
        assertThrows(MalformedMessageException.class, () -> RequestHeader.read(bytes, (short) 1));
        ByteBuffer negative = ByteBuffer.allocate(10).putShort((short) 3).putShort((short) 1).putInt(5).putShort((short) -2).flip();
        assertThrows(MalformedMessageException.class, () -> RequestHeader.read(negative, (short) 1));
    }
}
