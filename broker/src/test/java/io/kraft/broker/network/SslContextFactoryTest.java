package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.ConfigException;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SslContextFactoryTest {
    @TempDir
    static Path dir;
    static TestCertificates certs;

    @BeforeAll
    static void generate() throws Exception {
        certs = TestCertificates.create(dir);
    }

    private static Map<String, String> pkcs12() {
        Map<String, String> props = new HashMap<>();
        props.put("ssl.keystore.type", "PKCS12");
        props.put("ssl.keystore.location", certs.brokerKeyStore().toString());
        props.put("ssl.keystore.password", TestCertificates.PASSWORD);
        props.put("ssl.truststore.type", "PKCS12");
        props.put("ssl.truststore.location", certs.trustStore().toString());
        props.put("ssl.truststore.password", TestCertificates.PASSWORD);
        return props;
    }

    @Test
    void loadsEachKeyStoreFormat() throws Exception {
        assertNotNull(SslContextFactory.server(SslSettings.forListener("SSL", pkcs12())));
        // Kafka's default type, JKS: the JDK's JKS store reads PKCS12 files too.
        Map<String, String> jks = pkcs12();
        jks.remove("ssl.keystore.type");
        jks.remove("ssl.truststore.type");
        assertNotNull(SslContextFactory.server(SslSettings.forListener("SSL", jks)));
        Map<String, String> pem = new HashMap<>(Map.of(
                "ssl.keystore.type", "PEM",
                "ssl.keystore.location", certs.brokerPem(dir.resolve("broker.pem")).toString(),
                "ssl.truststore.type", "PEM",
                "ssl.truststore.location", certs.trustPem(dir.resolve("trust.pem")).toString()));
        assertNotNull(SslContextFactory.server(SslSettings.forListener("SSL", pem)));
        assertNotNull(SslContextFactory.client(SslSettings.forListener("SSL", pem)).context());
    }

    @Test
    void takesPemKeyMaterialInline() throws Exception {
        String pem = Files.readString(certs.brokerPem(dir.resolve("inline.pem")));
        int chainStart = pem.indexOf("-----BEGIN CERTIFICATE-----");
        Map<String, String> props = new HashMap<>(Map.of(
                "ssl.keystore.type", "PEM",
                "ssl.keystore.key", pem.substring(0, chainStart),
                "ssl.keystore.certificate.chain", pem.substring(chainStart),
                "ssl.truststore.type", "PEM",
                "ssl.truststore.certificates", Files.readString(certs.trustPem(dir.resolve("inline-trust.pem")))));
        assertNotNull(SslContextFactory.server(SslSettings.forListener("SSL", props)));
        assertNotNull(SslContextFactory.client(SslSettings.forListener("SSL", props)).context());
        // Written over continued lines of a properties file, the value loses its line breaks.
        Map<String, String> joined = new HashMap<>(props);
        joined.replaceAll((key, value) -> key.startsWith("ssl.keystore.key") || key.endsWith("certificates")
                || key.endsWith("chain") ? value.replace("\n", "") : value);
        assertNotNull(SslContextFactory.server(SslSettings.forListener("SSL", joined)));
        Map<String, String> both = new HashMap<>(props);
        both.put("ssl.keystore.location", "/some/file.pem");
        assertTrue(assertThrows(ConfigException.class, () -> SslContextFactory.server(SslSettings.forListener("SSL",
                both))).getMessage().startsWith("Invalid ssl.keystore.location for listener SSL: set either it or"));
        Map<String, String> keyOnly = new HashMap<>(props);
        keyOnly.remove("ssl.keystore.certificate.chain");
        assertTrue(assertThrows(ConfigException.class, () -> SslContextFactory.server(SslSettings.forListener("SSL",
                keyOnly))).getMessage().contains("set both or neither"));
        Map<String, String> garbled = new HashMap<>(props);
        garbled.put("ssl.keystore.key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
        ConfigException e = assertThrows(ConfigException.class,
                () -> SslContextFactory.server(SslSettings.forListener("SSL", garbled)));
        assertTrue(e.getMessage().startsWith("Invalid ssl.keystore.key or ssl.keystore.certificate.chain or"
                + " ssl.key.password for listener SSL"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void appliesProtocolsCipherSuitesAndClientAuthWithListenerOverrides() {
        Map<String, String> props = pkcs12();
        props.put("ssl.client.auth", "requested");
        props.put("listener.name.internal.ssl.client.auth", "required");
        props.put("listener.name.internal.ssl.enabled.protocols", "TLSv1.3");
        props.put("listener.name.internal.ssl.cipher.suites", "TLS_AES_128_GCM_SHA256");
        SSLEngine internal = SslContextFactory.server(SslSettings.forListener("INTERNAL", props))
                .newEngine(ByteBufAllocator.DEFAULT);
        // OpenSSL's engine also lists SSLv2Hello, the pseudo-protocol of hello formats, never negotiated.
        assertEquals(List.of("TLSv1.3"), Stream.of(internal.getEnabledProtocols())
                .filter(protocol -> !protocol.equals("SSLv2Hello")).toList());
        assertEquals(List.of("TLS_AES_128_GCM_SHA256"), List.of(internal.getEnabledCipherSuites()));
        assertTrue(internal.getNeedClientAuth());
        SSLEngine external = SslContextFactory.server(SslSettings.forListener("EXTERNAL", props))
                .newEngine(ByteBufAllocator.DEFAULT);
        assertTrue(external.getWantClientAuth());
        assertFalse(external.getNeedClientAuth());
        assertTrue(List.of(external.getEnabledProtocols()).contains("TLSv1.2"));
    }

    @Test
    void usesOpenSslUnlessCipherSuitesAreConfigured() {
        assertTrue(OpenSsl.isAvailable(), "netty-tcnative's BoringSSL loads on this platform");
        assertEquals(SslProvider.OPENSSL, SslContextFactory.serverProvider(SslSettings.forListener("SSL", pkcs12())));
        Map<String, String> suites = pkcs12();
        suites.put("ssl.cipher.suites", "TLS_AES_128_GCM_SHA256");
        assertEquals(SslProvider.JDK, SslContextFactory.serverProvider(SslSettings.forListener("SSL", suites)));
        // What the listener's "Bound" log line says it runs on.
        assertEquals("OpenSSL (" + OpenSsl.versionString() + ")",
                SslContextFactory.providerName(SslContextFactory.server(SslSettings.forListener("SSL", pkcs12()))));
        assertEquals("the JDK",
                SslContextFactory.providerName(SslContextFactory.server(SslSettings.forListener("SSL", suites))));
    }

    @Test
    void badKeyMaterialIsOneLineNamingTheKey() throws Exception {
        assertRefused(Map.of("ssl.keystore.password", "wrong"), "Invalid ssl.keystore.password for listener SSL");
        assertRefused(Map.of("ssl.key.password", "wrong"), "Invalid ssl.key.password for listener SSL");
        assertRefused(Map.of("ssl.keystore.location", dir.resolve("missing.p12").toString()),
                "Invalid ssl.keystore.location for listener SSL: no such file");
        assertRefused(Map.of("ssl.truststore.password", "wrong"), "Invalid ssl.truststore.password for listener SSL");
        Path garbage = Files.writeString(dir.resolve("garbage.p12"), "not a key store");
        assertRefused(Map.of("ssl.keystore.location", garbage.toString()), "Invalid ssl.keystore.location");
        assertRefused(Map.of("ssl.enabled.protocols", "TLSv0.9"), "Invalid ssl.enabled.protocols or ssl.cipher.suites");
        assertRefused(Map.of("ssl.client.auth", "maybe"), "ssl.client.auth");
        assertRefused(Map.of("listener.name.ssl.ssl.keystore.password", "wrong"), "ssl.keystore.password");
        Map<String, String> none = pkcs12();
        none.remove("ssl.keystore.location");
        ConfigException e = assertThrows(ConfigException.class,
                () -> SslContextFactory.server(SslSettings.forListener("SSL", none)));
        assertEquals("Listener SSL is SSL but ssl.keystore.location (or listener.name.ssl.ssl.keystore.location) is"
                + " not set", e.getMessage());
    }

    private static void assertRefused(Map<String, String> changes, String expected) {
        Map<String, String> props = pkcs12();
        props.putAll(changes);
        ConfigException e = assertThrows(ConfigException.class,
                () -> SslContextFactory.server(SslSettings.forListener("SSL", props)));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
