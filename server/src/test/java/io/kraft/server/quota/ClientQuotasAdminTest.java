package io.kraft.server.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterClientQuotasOptions;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.quota.ClientQuotaFilter;
import org.apache.kafka.common.quota.ClientQuotaFilterComponent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AlterClientQuotas and DescribeClientQuotas with Kafka's Admin client: defaults, filters, removal, bad keys, restart. */
class ClientQuotasAdminTest {
    @TempDir
    Path dir;

    private static ClientQuotaEntity entity(String... typeAndName) {
        Map<String, String> names = new HashMap<>();
        for (int i = 0; i < typeAndName.length; i += 2) {
            names.put(typeAndName[i], typeAndName[i + 1]);
        }
        return new ClientQuotaEntity(names);
    }

    private static void alter(Admin admin, ClientQuotaEntity entity, String key, Double value) throws Exception {
        admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity,
                List.of(new ClientQuotaAlteration.Op(key, value))))).all().get(TestNode.WAIT_MS, TimeUnit.MILLISECONDS);
    }

    private static Map<ClientQuotaEntity, Map<String, Double>> describe(Admin admin, ClientQuotaFilter filter)
            throws Exception {
        return admin.describeClientQuotas(filter).entities().get(TestNode.WAIT_MS, TimeUnit.MILLISECONDS);
    }

    @Test
    void quotasRoundTripWithDefaultsFiltersAndRemovalAndSurviveARestart() throws Exception {
        ClientQuotaEntity alice = entity(ClientQuotaEntity.USER, "alice");
        ClientQuotaEntity aliceApp = entity(ClientQuotaEntity.USER, "alice", ClientQuotaEntity.CLIENT_ID, "app");
        ClientQuotaEntity defaultUser = entity(ClientQuotaEntity.USER, null);
        ClientQuotaEntity defaultClient = entity(ClientQuotaEntity.CLIENT_ID, null);
        try (TestNode node = new TestNode(dir, Map.of()).start()) {
            Admin admin = node.admin();
            alter(admin, alice, "producer_byte_rate", 1048576.0);
            alter(admin, alice, "consumer_byte_rate", 2097152.0);
            alter(admin, aliceApp, "request_percentage", 50.0);
            alter(admin, defaultUser, "producer_byte_rate", 4096.0);
            alter(admin, defaultClient, "consumer_byte_rate", 8192.0);

            assertEquals(Map.of(alice, Map.of("producer_byte_rate", 1048576.0, "consumer_byte_rate", 2097152.0),
                            aliceApp, Map.of("request_percentage", 50.0), defaultUser,
                            Map.of("producer_byte_rate", 4096.0), defaultClient, Map.of("consumer_byte_rate", 8192.0)),
                    describe(admin, ClientQuotaFilter.all()));
            // Not strict: every entity naming user alice; strict: only the user-only entity.
            assertEquals(Map.of(alice, Map.of("producer_byte_rate", 1048576.0, "consumer_byte_rate", 2097152.0),
                            aliceApp, Map.of("request_percentage", 50.0)),
                    describe(admin, ClientQuotaFilter.contains(List.of(ClientQuotaFilterComponent.ofEntity(
                            ClientQuotaEntity.USER, "alice")))));
            assertEquals(Map.of(alice, Map.of("producer_byte_rate", 1048576.0, "consumer_byte_rate", 2097152.0)),
                    describe(admin, ClientQuotaFilter.containsOnly(List.of(ClientQuotaFilterComponent.ofEntity(
                            ClientQuotaEntity.USER, "alice")))));
            assertEquals(Map.of(defaultUser, Map.of("producer_byte_rate", 4096.0)),
                    describe(admin, ClientQuotaFilter.containsOnly(List.of(
                            ClientQuotaFilterComponent.ofDefaultEntity(ClientQuotaEntity.USER)))));
            assertEquals(Map.of(alice, Map.of("producer_byte_rate", 1048576.0, "consumer_byte_rate", 2097152.0),
                            defaultUser, Map.of("producer_byte_rate", 4096.0)),
                    describe(admin, ClientQuotaFilter.containsOnly(List.of(
                            ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.USER)))));
            assertEquals(Map.of(aliceApp, Map.of("request_percentage", 50.0)),
                    describe(admin, ClientQuotaFilter.contains(List.of(
                            ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.CLIENT_ID),
                            ClientQuotaFilterComponent.ofEntityType(ClientQuotaEntity.USER)))));

            // Removing a key keeps the entity's others; removing its last key removes the entity.
            alter(admin, alice, "consumer_byte_rate", null);
            alter(admin, aliceApp, "request_percentage", null);
            Map<ClientQuotaEntity, Map<String, Double>> afterRemoval = describe(admin, ClientQuotaFilter.all());
            assertEquals(Map.of("producer_byte_rate", 1048576.0), afterRemoval.get(alice));
            assertTrue(!afterRemoval.containsKey(aliceApp), "an entity without keys is gone: " + afterRemoval);

            // validate_only checks and writes nothing.
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(entity(ClientQuotaEntity.USER, "bob"),
                            List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1000.0)))),
                    new AlterClientQuotasOptions().validateOnly(true)).all().get();
            assertTrue(!describe(admin, ClientQuotaFilter.all()).containsKey(entity(ClientQuotaEntity.USER, "bob")),
                    "validate_only wrote nothing");

            node.restart();
            assertEquals(Map.of(alice, Map.of("producer_byte_rate", 1048576.0), defaultUser,
                            Map.of("producer_byte_rate", 4096.0), defaultClient, Map.of("consumer_byte_rate", 8192.0)),
                    describe(node.admin(), ClientQuotaFilter.all()), "quotas survive a restart");
        }
    }

    @Test
    void badKeysValuesAndEntitiesAreRefusedWithInvalidRequest() throws Exception {
        try (TestNode node = new TestNode(dir, Map.of()).start()) {
            Admin admin = node.admin();
            ClientQuotaEntity user = entity(ClientQuotaEntity.USER, "alice");
            assertInvalid(admin, user, "producer_bytes_rate", 10.0, "Invalid configuration key");
            assertInvalid(admin, user, "producer_byte_rate", 10.5, "must be a Long value");
            assertInvalid(admin, user, "producer_byte_rate", -1.0, "must be positive");
            assertInvalid(admin, entity(ClientQuotaEntity.IP, "10.0.0.1"), "producer_byte_rate", 10.0,
                    "Invalid configuration key");
            assertInvalid(admin, new ClientQuotaEntity(Collections.singletonMap("group", "g")), "producer_byte_rate",
                    10.0, "Unhandled client quota entity type");
            ExecutionException filter = assertThrows(ExecutionException.class, () -> describe(admin,
                    ClientQuotaFilter.contains(List.of(ClientQuotaFilterComponent.ofEntity("group", "g")))));
            assertInstanceOf(InvalidRequestException.class, filter.getCause());
            assertEquals(Map.of(), describe(admin, ClientQuotaFilter.all()), "nothing was written");
        }
    }

    private static void assertInvalid(Admin admin, ClientQuotaEntity entity, String key, double value,
                                      String message) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> alter(admin, entity, key, value));
        assertInstanceOf(InvalidRequestException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains(message), e.getCause().getMessage());
    }
}
