package io.kraft.broker.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.ConfigException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BrokerLifecycleConfigTest {
    @Test
    void defaultsAndKafkaNamedOverrides() {
        BrokerLifecycleConfig defaults = BrokerLifecycleConfig.defaults();
        assertEquals(Optional.empty(), defaults.rack());
        assertEquals(1_000, defaults.heartbeatIntervalMs());
        assertEquals(5_000, defaults.controlledShutdownTimeoutMs());

        BrokerLifecycleConfig set = BrokerLifecycleConfig.fromProperties(Map.of("broker.rack", " eu-1a ",
                "broker.heartbeat.interval.ms", "250", "controlled.shutdown.timeout.ms", "0", "node.id", "3"));
        assertEquals(Optional.of("eu-1a"), set.rack());
        assertEquals(250, set.heartbeatIntervalMs());
        assertEquals(0, set.controlledShutdownTimeoutMs());
        assertEquals(Optional.empty(), BrokerLifecycleConfig.fromProperties(Map.of("broker.rack", "  ")).rack());
    }

    @Test
    void aBadValueNamesTheKey() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> BrokerLifecycleConfig.fromProperties(Map.of("broker.heartbeat.interval.ms", "soon")));
        assertTrue(e.getMessage().contains("broker.heartbeat.interval.ms"), e.getMessage());
        assertThrows(ConfigException.class,
                () -> BrokerLifecycleConfig.fromProperties(Map.of("controlled.shutdown.timeout.ms", "-1")));
    }
}
