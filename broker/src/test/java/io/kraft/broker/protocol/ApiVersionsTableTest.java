package io.kraft.broker.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiMessageFactory;
import io.kraft.generator.MessageSpec;
import io.kraft.generator.SpecParser;
import io.kraft.storage.errors.Errors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

/** The API table: ids and names agree with Kafka, ranges follow PROTOCOL.md, and every API has generated messages. */
class ApiVersionsTableTest {

    @Test
    void everyApiInTheTableHasGeneratedMessages() {
        assertEquals(EnumSet.allOf(ApiKey.class), ApiVersionsTable.allDeclared().apis());
    }

    /** The spec files and the API table agree on every API's accepted versions and where flexible versions start. */
    @Test
    void specsAgreeWithTheApiTable() throws Exception {
        SpecParser parser = new SpecParser();
        for (ApiKey api : ApiKey.values()) {
            for (ApiMessage message : List.of(ApiMessageFactory.newRequest(api), ApiMessageFactory.newResponse(api))) {
                String name = message.getClass().getSimpleName();
                assertEquals(api.acceptedVersions(),
                        Versions.of(message.lowestSupportedVersion(), message.highestSupportedVersion()), name);
                Path file = Path.of("src/main/messages", name + ".json");
                MessageSpec spec = parser.parse(file.toString(), Files.readString(file));
                for (short v = api.acceptedVersions().lowest(); v <= api.acceptedVersions().highest(); v++) {
                    assertEquals(api.isFlexible(v), spec.flexibleVersions().contains(v), name + " v" + v);
                }
            }
        }
    }

    @Test
    void idsAndNamesMatchKafka() {
        for (ApiKey api : ApiKey.values()) {
            ApiKeys kafka = ApiKeys.forId(api.id());
            assertEquals(kafka.name, api.apiName());
            assertSame(api, ApiKey.forId(api.id()));
            assertTrue(kafka.oldestVersion() <= api.acceptedVersions().lowest(), api + " accepts a version Kafka 4 dropped");
            assertTrue(kafka.latestVersion() >= api.acceptedVersions().highest(), api + " beyond Kafka's newest version");
        }
        assertNull(ApiKey.forId(4), "LeaderAndIsr is not served");
        assertNull(ApiKey.forId(-1));
    }

    @Test
    void advertisedRangesContainAcceptedRangesAndOldClientAnchors() {
        for (ApiKey api : ApiKey.values()) {
            Versions accepted = api.acceptedVersions();
            assertEquals(accepted, api.advertisedVersions().intersect(accepted), api.toString());
        }
        assertEquals(Versions.parse("3-12"), ApiKey.PRODUCE.acceptedVersions());
        assertEquals(Versions.parse("0-12"), ApiKey.PRODUCE.advertisedVersions());
        assertEquals(Versions.parse("4-17"), ApiKey.FETCH.acceptedVersions());
        assertEquals(Versions.parse("0-5"), ApiKey.API_VERSIONS.advertisedVersions());
        assertEquals(Versions.parse("2-4"), ApiKey.OFFSET_FOR_LEADER_EPOCH.advertisedVersions());
        for (ApiKey anchored : new ApiKey[] {ApiKey.JOIN_GROUP, ApiKey.SYNC_GROUP, ApiKey.HEARTBEAT,
                ApiKey.LEAVE_GROUP, ApiKey.FIND_COORDINATOR, ApiKey.INIT_PRODUCER_ID, ApiKey.SASL_HANDSHAKE,
                ApiKey.ADD_PARTITIONS_TO_TXN, ApiKey.ADD_OFFSETS_TO_TXN}) {
            assertTrue(anchored.advertisedVersions().contains((short) 0), anchored + " must advertise v0 for librdkafka");
        }
        assertTrue(ApiKey.LIST_OFFSETS.advertisedVersions().contains((short) 1));
    }

    @Test
    void restrictedTablesServeOnlyTheirApis() {
        ApiVersionsTable table = ApiVersionsTable.of(EnumSet.of(ApiKey.API_VERSIONS, ApiKey.METADATA));
        assertSame(ApiKey.METADATA, table.lookup((short) 3));
        assertNull(table.lookup((short) 0));
        assertTrue(table.accepts(ApiKey.METADATA, (short) 0));
        assertFalse(table.accepts(ApiKey.PRODUCE, (short) 9));
        assertFalse(table.accepts(ApiKey.METADATA, (short) 14));
        assertEquals(2, table.toApiVersionsResponse(Errors.NONE).apiKeys().size());
    }
}
