package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.ConfigException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ListenersTest {
    @Test
    void mapsEachListenerToItsProtocolWithKafkasDefaults() {
        Listeners listeners = Listeners.parse("PLAINTEXT://localhost:9092,SSL://10.0.0.1:9093,CONTROLLER://:9094",
                Map.of());
        assertEquals(List.of(new Listeners.Listener("PLAINTEXT", "localhost", 9092, SecurityProtocol.PLAINTEXT),
                        new Listeners.Listener("SSL", "10.0.0.1", 9093, SecurityProtocol.SSL)),
                listeners.brokerListeners());
        assertEquals(List.of(new Listeners.Listener("CONTROLLER", "", 9094, SecurityProtocol.PLAINTEXT)),
                listeners.controllerListeners());
        assertEquals("PLAINTEXT", listeners.interBrokerListener().orElseThrow().name());
    }

    @Test
    void readsACustomMapAndInterBrokerListener() {
        Listeners listeners = Listeners.parse("CLIENTS://[::1]:9092,INTERNAL://0.0.0.0:9093,CTRL://:9094", Map.of(
                "listener.security.protocol.map", "CLIENTS:SSL,INTERNAL:PLAINTEXT,CTRL:PLAINTEXT",
                "controller.listener.names", "CTRL",
                "inter.broker.listener.name", "INTERNAL",
                "advertised.listeners", "CLIENTS://broker1.example.com:9092,INTERNAL://10.0.0.1:9093"));
        assertEquals("::1", listeners.brokerListeners().get(0).host());
        assertEquals(SecurityProtocol.SSL, listeners.brokerListeners().get(0).protocol());
        assertEquals("INTERNAL", listeners.interBrokerListener().orElseThrow().name());
        assertEquals(List.of("CTRL"), listeners.controllerNames());
        assertEquals("CLIENTS://[::1]:9092", listeners.brokerListeners().get(0).toString());
    }

    @Test
    void servesSaslListeners() {
        Listeners listeners = Listeners.parse("SASL_SSL://:9092,SASL_PLAINTEXT://:9093", Map.of());
        assertEquals(List.of(SecurityProtocol.SASL_SSL, SecurityProtocol.SASL_PLAINTEXT),
                listeners.all().stream().map(Listeners.Listener::protocol).toList());
    }

    @Test
    void theControlPlaneIsPlaintextUnlessItsListenerIsMappedToSsl() {
        assertEquals(SecurityProtocol.PLAINTEXT, Listeners.controlPlaneProtocol(Map.of()));
        Map<String, String> ssl = Map.of("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CTL:SSL",
                "controller.listener.names", "CTL");
        assertEquals(SecurityProtocol.SSL, Listeners.controlPlaneProtocol(ssl));
        assertEquals("CTL", Listeners.controlPlaneListenerName(ssl));
        // A broker-only node names the controllers' listener without listening on it.
        assertEquals(List.of("PLAINTEXT"), Listeners.parse("PLAINTEXT://:9092", ssl).all().stream()
                .map(Listeners.Listener::name).toList());
        assertEquals(SecurityProtocol.SSL, Listeners.parse("PLAINTEXT://:9092,CTL://:9093", ssl)
                .controllerListeners().get(0).protocol());
        assertThrows(ConfigException.class, () -> Listeners.controlPlaneProtocol(
                Map.of("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT")));
    }

    @Test
    void refusesWhatItCannotServeInOneLine() {
        assertRefused("PLAINTEXT://:9092,CLIENTS://:9093", Map.of(), "Listener CLIENTS has no security protocol");
        assertRefused("PLAINTEXT://:9092", Map.of("listener.security.protocol.map", "PLAINTEXT:TLS"),
                "Unknown security protocol 'TLS'");
        assertRefused("PLAINTEXT://:9092", Map.of("listener.security.protocol.map", "PLAINTEXT"),
                "is not of the form NAME:PROTOCOL");
        assertRefused("PLAINTEXT://:9092,PLAINTEXT://:9093", Map.of(), "appears more than once");
        assertRefused("PLAINTEXT://:9092,SSL://localhost:9092", Map.of(), "both use port 9092");
        ConfigException saslControlPlane = assertThrows(ConfigException.class, () -> Listeners.controlPlaneProtocol(
                Map.of("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:SASL_SSL")));
        assertTrue(saslControlPlane.getMessage().contains("SASL_SSL is not supported on the control plane"),
                saslControlPlane.getMessage());
        // A map that forgets the controller listener is a map the user wrote: no silent default then.
        assertRefused("PLAINTEXT://:9092,CONTROLLER://:9093",
                Map.of("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT"),
                "Listener CONTROLLER has no security protocol");
        assertRefused("PLAINTEXT://:9092", Map.of("advertised.listeners", "SSL://host:9093"),
                "advertised.listeners names SSL, which is not in listeners");
        assertRefused("PLAINTEXT://:9092,CONTROLLER://:9093", Map.of("inter.broker.listener.name", "CONTROLLER"),
                "inter.broker.listener.name CONTROLLER is not one of the broker listeners");
        assertRefused("PLAINTEXT//:9092", Map.of(), "is not of the form NAME://host:port");
    }

    @Test
    void ephemeralPortsMayRepeat() {
        Listeners listeners = Listeners.parse("PLAINTEXT://localhost:0,SSL://localhost:0", Map.of());
        assertEquals(2, listeners.brokerListeners().size());
        assertFalse(listeners.brokerListeners().get(1).protocol().sasl());
        assertTrue(listeners.brokerListeners().get(1).protocol().tls());
    }

    private static void assertRefused(String listeners, Map<String, String> props, String expected) {
        ConfigException e = assertThrows(ConfigException.class, () -> Listeners.parse(listeners, props));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
