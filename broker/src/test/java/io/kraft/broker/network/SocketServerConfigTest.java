package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/** Kafka-named properties become wire-server settings, with Kafka's defaults and clear errors. */
class SocketServerConfigTest {

    @Test
    void takesKafkaDefaultsWhenNothingIsSet() {
        SocketServerConfig config = SocketServerConfig.fromProperties(Map.of());
        assertEquals("PLAINTEXT", config.listenerName());
        assertEquals("", config.host());
        assertEquals(9092, config.port());
        assertEquals(104_857_600, config.requestMaxBytes());
        assertEquals(8, config.ioThreads());
        assertEquals(500, config.queuedMaxRequests());
        assertEquals(600_000L, config.connectionsMaxIdleMs());
        assertEquals(102_400, config.sendBufferBytes());
        assertEquals(102_400, config.receiveBufferBytes());
    }

    @Test
    void leavesEachSocketBufferToTheOperatingSystemOnlyWhenAskedWithMinusOne() {
        assertBufferSetting("socket.send.buffer.bytes", SocketServerConfig::sendBufferBytes);
        assertBufferSetting("socket.receive.buffer.bytes", SocketServerConfig::receiveBufferBytes);
    }

    private static void assertBufferSetting(String key, ToIntFunction<SocketServerConfig> setting) {
        assertEquals(SocketServerConfig.OS_DEFAULT_BUFFER_BYTES,
                setting.applyAsInt(SocketServerConfig.fromProperties(Map.of(key, "-1"))));
        SocketServerConfig set = SocketServerConfig.fromProperties(Map.of(key, "1048576"));
        assertEquals(1_048_576, setting.applyAsInt(set));
        assertEquals(1_048_576, setting.applyAsInt(set.withConnectionsMaxIdleMs(5_000).withIoThreads(2, 4)),
                "copies keep it");
        InvalidServerConfigException zero = assertThrows(InvalidServerConfigException.class,
                () -> SocketServerConfig.fromProperties(Map.of(key, "0")));
        assertTrue(zero.getMessage().startsWith(key), zero.getMessage());
        assertEquals(102_400, setting.applyAsInt(SocketServerConfig.defaults("PLAINTEXT", "", 0)));
    }

    @Test
    void servesTheFirstListenerAndReadsTheLimits() {
        SocketServerConfig config = SocketServerConfig.fromProperties(Map.of(
                "listeners", "CLIENTS://[::1]:0,INTERNAL://10.0.0.1:9093",
                "socket.request.max.bytes", "2048",
                "num.io.threads", "2",
                "queued.max.requests", "16",
                "connections.max.idle.ms", "1000"));
        assertEquals("CLIENTS", config.listenerName());
        assertEquals("::1", config.host());
        assertEquals(0, config.port());
        assertEquals(2048, config.requestMaxBytes());
        assertEquals(2, config.ioThreads());
        assertEquals(16, config.queuedMaxRequests());
        assertEquals(1000L, config.connectionsMaxIdleMs());
    }

    @Test
    void readsTheNetworkLimitsUnderKafkasNames() {
        SocketServerConfig defaults = SocketServerConfig.fromProperties(Map.of());
        assertEquals(NetworkLimits.defaults(), defaults.limits());
        assertEquals(Integer.MAX_VALUE, defaults.limits().maxConnections());
        assertEquals(128L << 20, NetworkLimits.automaticRequestBytes(1L << 30, 104_857_600),
                "-1 takes an eighth of the heap");
        assertEquals(104_857_600L, NetworkLimits.automaticRequestBytes(256L << 20, 104_857_600),
                "but never less than one largest request");
        NetworkLimits set = SocketServerConfig.fromProperties(Map.of(
                "queued.max.request.bytes", "5000000000",
                "max.connections", "1000",
                "max.connections.per.ip", "10",
                "max.connections.per.ip.overrides", "127.0.0.1:100, client.example.com:0",
                "max.connection.creation.rate", "50")).limits();
        assertEquals(5_000_000_000L, set.requestMemoryBytes(104_857_600));
        assertEquals(1000, set.maxConnections());
        assertEquals(Map.of("127.0.0.1", 100, "client.example.com", 0), set.maxConnectionsPerIpOverrides());
        assertEquals(100, set.maxConnectionsFor("127.0.0.1"));
        assertEquals(10, set.maxConnectionsFor("10.1.1.1"));
        assertEquals(50, set.maxConnectionCreationRate());
        InvalidServerConfigException zero = assertThrows(InvalidServerConfigException.class,
                () -> SocketServerConfig.fromProperties(Map.of("queued.max.request.bytes", "0")));
        assertTrue(zero.getMessage().startsWith("queued.max.request.bytes"), zero.getMessage());
        InvalidServerConfigException badOverride = assertThrows(InvalidServerConfigException.class,
                () -> SocketServerConfig.fromProperties(Map.of("max.connections.per.ip.overrides", "nolimit")));
        assertTrue(badOverride.getMessage().startsWith("max.connections.per.ip.overrides"), badOverride.getMessage());
        assertTrue(SocketServerConfig.definition().names().contains("max.connection.creation.rate"));
    }

    @Test
    void rejectsMalformedListenersAndLimitsNamingTheSetting() {
        InvalidServerConfigException noScheme = assertThrows(InvalidServerConfigException.class,
                () -> SocketServerConfig.fromProperties(Map.of("listeners", "localhost:9092")));
        assertTrue(noScheme.getMessage().contains("NAME://host:port"), noScheme.getMessage());
        InvalidServerConfigException badPort = assertThrows(InvalidServerConfigException.class,
                () -> SocketServerConfig.fromProperties(Map.of("listeners", "PLAINTEXT://:70000")));
        assertTrue(badPort.getMessage().startsWith("listeners port"), badPort.getMessage());
        InvalidServerConfigException badQueue = assertThrows(InvalidServerConfigException.class,
                () -> SocketServerConfig.fromProperties(Map.of("queued.max.requests", "0")));
        assertTrue(badQueue.getMessage().startsWith("queued.max.requests"), badQueue.getMessage());
    }

    @Test
    void registersTheAdvertisedAddressOfItsListenerWhenOneIsGiven() {
        Map<String, String> props = Map.of("advertised.listeners",
                "INTERNAL://10.0.0.5:19092,PLAINTEXT://broker1.example.com:9092");
        assertEquals(Map.entry("broker1.example.com", 9092),
                SocketServerConfig.advertisedAddress(props, "PLAINTEXT", "0.0.0.0", 45_000));
        // No entry for this listener: the bound address, as Kafka does without advertised.listeners.
        assertEquals(Map.entry("localhost", 45_000),
                SocketServerConfig.advertisedAddress(Map.of(), "PLAINTEXT", "localhost", 45_000));
        assertEquals(Map.entry("localhost", 45_000), SocketServerConfig.advertisedAddress(
                Map.of("advertised.listeners", "PLAINTEXT://localhost:0"), "PLAINTEXT", "", 45_000));
        InvalidServerConfigException bad = assertThrows(InvalidServerConfigException.class,
                () -> SocketServerConfig.advertisedAddress(Map.of("advertised.listeners", "broker1:9092"),
                        "PLAINTEXT", "", 1));
        assertTrue(bad.getMessage().startsWith("advertised.listeners"), bad.getMessage());
    }
}
