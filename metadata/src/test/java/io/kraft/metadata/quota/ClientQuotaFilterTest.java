package io.kraft.metadata.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DescribeClientQuotas' filter semantics and the entity and key validation of AlterClientQuotas. */
class ClientQuotaFilterTest {
    private static final ClientQuotaEntity ALICE = ClientQuotaEntity.user("alice");
    private static final ClientQuotaEntity ALICE_APP = ClientQuotaEntity.of("alice", "app");
    private static final ClientQuotaEntity DEFAULT_USER_APP = ClientQuotaEntity.of(null, "app");

    private static ClientQuotaFilter.Component user(ClientQuotaFilter.MatchType type, String name) {
        return new ClientQuotaFilter.Component(ClientQuotaEntity.USER, type, name);
    }

    @Test
    void componentsMatchExactDefaultOrAnyNameAndStrictRefusesOtherTypes() {
        ClientQuotaFilter exact = new ClientQuotaFilter(List.of(user(ClientQuotaFilter.MatchType.EXACT, "alice")),
                false);
        assertTrue(exact.matches(ALICE));
        assertTrue(exact.matches(ALICE_APP));
        assertFalse(exact.matches(DEFAULT_USER_APP));
        ClientQuotaFilter strict = new ClientQuotaFilter(exact.components(), true);
        assertTrue(strict.matches(ALICE));
        assertFalse(strict.matches(ALICE_APP));
        ClientQuotaFilter defaults = new ClientQuotaFilter(List.of(user(ClientQuotaFilter.MatchType.DEFAULT, null)),
                false);
        assertTrue(defaults.matches(DEFAULT_USER_APP));
        assertFalse(defaults.matches(ALICE));
        ClientQuotaFilter any = new ClientQuotaFilter(List.of(user(ClientQuotaFilter.MatchType.ANY, null)), false);
        assertTrue(any.matches(ALICE) && any.matches(DEFAULT_USER_APP));
        assertFalse(any.matches(ClientQuotaEntity.clientId("app")));
        assertTrue(new ClientQuotaFilter(List.of(), false).matches(ALICE));
        assertFalse(new ClientQuotaFilter(List.of(), true).matches(ALICE));
    }

    @Test
    void invalidFiltersNameTheirProblem() {
        assertNull(new ClientQuotaFilter(List.of(user(ClientQuotaFilter.MatchType.ANY, null)), true).invalidReason());
        assertTrue(new ClientQuotaFilter(List.of(user(ClientQuotaFilter.MatchType.EXACT, null)), false)
                .invalidReason().contains("MATCH_EXACT"));
        assertTrue(new ClientQuotaFilter(List.of(user(ClientQuotaFilter.MatchType.ANY, null),
                user(ClientQuotaFilter.MatchType.ANY, null)), false).invalidReason().contains("Duplicate"));
        assertTrue(new ClientQuotaFilter(List.of(new ClientQuotaFilter.Component("group",
                ClientQuotaFilter.MatchType.ANY, null)), false).invalidReason().contains("group"));
    }

    @Test
    void keysAndEntitiesAreValidatedAsKafkaDoes() {
        assertNull(ClientQuotaKeys.invalidEntity(ALICE_APP));
        assertNull(ClientQuotaKeys.invalidValue(ALICE_APP, "producer_byte_rate", 1024));
        assertNull(ClientQuotaKeys.invalidValue(ALICE_APP, "request_percentage", 12.5));
        assertNull(ClientQuotaKeys.invalidValue(ClientQuotaEntity.clientId(null), "controller_mutation_rate", 0.5));
        assertNull(ClientQuotaKeys.invalidValue(new ClientQuotaEntity(Map.of("ip", "10.0.0.1")),
                "connection_creation_rate", 10));
        assertTrue(ClientQuotaKeys.invalidValue(ALICE, "bogus", 1).contains("Invalid configuration key bogus"));
        assertTrue(ClientQuotaKeys.invalidValue(ALICE, "consumer_byte_rate", 1.5).contains("Long"));
        assertTrue(ClientQuotaKeys.invalidValue(new ClientQuotaEntity(Map.of("ip", "10.0.0.1")),
                "producer_byte_rate", 1).contains("Invalid configuration key"));
        assertTrue(ClientQuotaKeys.invalidEntity(new ClientQuotaEntity(Map.of("ip", "1.2.3.4", "user", "a")))
                .contains("IP"));
        assertTrue(ClientQuotaKeys.invalidEntity(new ClientQuotaEntity(Map.of())).contains("empty"));
        assertEquals("user=alice", ALICE.toString());
    }
}
