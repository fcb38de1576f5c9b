package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The controller settings a node reads from its Kafka-named properties. */
class ControllerSettingsTest {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";

    @Test
    void absentKeysTakeKafkasDefaults() {
        ControllerSettings settings = ControllerSettings.fromProperties(CLUSTER_ID,
                Map.of("node.id", "1", "log.dirs", "/tmp/x"));
        assertEquals(ControllerSettings.defaults(CLUSTER_ID), settings);
    }

    @Test
    void readsEveryControllerKey() {
        ControllerSettings settings = ControllerSettings.fromProperties(CLUSTER_ID, Map.of(
                "broker.session.timeout.ms", "12000",
                "broker.connection.loss.grace.ms", "0",
                "unclean.leader.election.enable", "true",
                "num.partitions", "6",
                "default.replication.factor", "3"));
        assertEquals(new ControllerSettings(CLUSTER_ID, 12_000, 0, true, 6, 3), settings);
    }

    @Test
    void theBrokerProbeIsOnUnlessTurnedOffAndABadValueNamesItsKey() {
        assertTrue(ControllerSettings.brokerProbeEnabled(Map.of()));
        assertFalse(ControllerSettings.brokerProbeEnabled(Map.of("broker.connection.probe.enable", "false")));
        ConfigException invalid = assertThrows(ConfigException.class,
                () -> ControllerSettings.brokerProbeEnabled(Map.of("broker.connection.probe.enable", "maybe")));
        assertTrue(invalid.getMessage().contains("broker.connection.probe.enable"), invalid.getMessage());
    }

    @Test
    void anInvalidValueNamesItsKey() {
        ConfigException invalid = assertThrows(ConfigException.class,
                () -> ControllerSettings.fromProperties(CLUSTER_ID, Map.of("num.partitions", "0")));
        assertTrue(invalid.getMessage().contains("num.partitions"), invalid.getMessage());
        ConfigException notANumber = assertThrows(ConfigException.class,
                () -> ControllerSettings.fromProperties(CLUSTER_ID, Map.of("default.replication.factor", "three")));
        assertTrue(notANumber.getMessage().contains("default.replication.factor"), notANumber.getMessage());
    }
}
