package io.kraft.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class KafkaIdsTest {
    @Test
    void printsIdsAsKafkasClientsAndToolsDo() {
        for (UUID id : new UUID[] {SampleMetadata.ORDERS_ID, new UUID(-1, 1), UUID.randomUUID()}) {
            String kafka = new org.apache.kafka.common.Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits())
                    .toString();
            assertEquals(kafka, KafkaIds.text(id));
        }
    }
}
