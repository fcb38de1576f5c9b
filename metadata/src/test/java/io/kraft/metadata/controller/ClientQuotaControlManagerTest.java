package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.quota.ClientQuotaAlteration;
import io.kraft.metadata.quota.ClientQuotaAlteration.Op;
import io.kraft.metadata.quota.ClientQuotaEntity;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AlterClientQuotas on the controller: one record per key, entries failing alone, validate_only writing nothing. */
class ClientQuotaControlManagerTest {
    private final ClientQuotaControlManager manager = new ClientQuotaControlManager();

    private static MetadataImage replay(MetadataImage image, ControllerResult<?> result) {
        MetadataDelta delta = new MetadataDelta(image);
        long offset = image.offset();
        for (var record : result.records()) {
            delta.replay(record, ++offset, 1);
        }
        return delta.apply();
    }

    @Test
    void eachValidEntryBecomesOneRecordPerKeyAndABadOneFailsAlone() {
        ClientQuotaEntity alice = ClientQuotaEntity.user("alice");
        var result = manager.alterClientQuotas(List.of(
                new ClientQuotaAlteration(alice, List.of(new Op("producer_byte_rate", 1024.0),
                        new Op("consumer_byte_rate", 2048.0))),
                new ClientQuotaAlteration(ClientQuotaEntity.clientId("app"), List.of(new Op("bogus", 1.0))),
                new ClientQuotaAlteration(ClientQuotaEntity.clientId("dup"), List.of(new Op("request_percentage", 1.0),
                        new Op("request_percentage", null)))), false);
        assertEquals(2, result.records().size());
        assertEquals(ApiError.NONE, result.response().get(0));
        assertEquals(Errors.INVALID_REQUEST, result.response().get(1).error());
        assertTrue(result.response().get(2).message().contains("Duplicate quota key"));
        MetadataImage image = replay(MetadataImage.EMPTY, result);
        assertEquals(Map.of(alice, Map.of("producer_byte_rate", 1024.0, "consumer_byte_rate", 2048.0)),
                image.clientQuotas().quotas());

        var removal = manager.alterClientQuotas(List.of(new ClientQuotaAlteration(alice, List.of(
                new Op("producer_byte_rate", null), new Op("consumer_byte_rate", null)))), false);
        assertEquals(Map.of(), replay(image, removal).clientQuotas().quotas(), "an entity without keys is gone");
    }

    @Test
    void validateOnlyAnswersWithoutRecords() {
        var result = manager.alterClientQuotas(List.of(new ClientQuotaAlteration(ClientQuotaEntity.user(null),
                List.of(new Op("producer_byte_rate", 1024.0)))), true);
        assertEquals(List.of(), result.records());
        assertEquals(List.of(ApiError.NONE), result.response());
    }
}
