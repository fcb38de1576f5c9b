package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.security.SaslClientLogin;
import io.kraft.config.ConfigException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SaslSettingsTest {
    private static final String PLAIN = "org.apache.kafka.common.security.plain.PlainLoginModule";

    @Test
    void defaultsToScramWithoutReauthentication() {
        SaslSettings settings = SaslSettings.forListener("SASL_SSL", Map.of());
        assertEquals(List.of("SCRAM-SHA-256", "SCRAM-SHA-512"), settings.enabledMechanisms());
        assertEquals(0, settings.reauthMs());
    }

    @Test
    void readsListenerKeysBeforeNodeWideOnes() {
        SaslSettings settings = SaslSettings.forListener("External", Map.of(
                "sasl.enabled.mechanisms", "SCRAM-SHA-512",
                "listener.name.external.sasl.enabled.mechanisms", "plain, scram-sha-256",
                "sasl.jaas.config", PLAIN + " required user_bob=\"b\";",
                "listener.name.external.plain.sasl.jaas.config", PLAIN + " required user_alice=\"a\";",
                "connections.max.reauth.ms", "60000",
                "listener.name.external.connections.max.reauth.ms", "5000"));
        assertEquals(List.of("PLAIN", "SCRAM-SHA-256"), settings.enabledMechanisms());
        assertEquals(Map.of("alice", "a"), settings.plainPasswords());
        assertEquals(5000, settings.reauthMs());
        assertFalse(settings.toString().contains("\"a\"") || settings.toString().contains("=a"), settings.toString());
        assertTrue(SaslSettings.isListenerKey("listener.name.external.plain.sasl.jaas.config"));
        assertTrue(SaslSettings.isListenerKey("listener.name.external.sasl.enabled.mechanisms"));
        assertFalse(SaslSettings.isListenerKey("listener.name.external.ssl.keystore.location"));
    }

    @Test
    void refusesWhatItCannotServeInOneLineWithoutPasswords() {
        assertRefused(Map.of("sasl.enabled.mechanisms", "GSSAPI"), "SASL mechanism GSSAPI in sasl.enabled.mechanisms"
                + " is not supported; this broker serves PLAIN, SCRAM-SHA-256, SCRAM-SHA-512");
        assertRefused(Map.of("sasl.enabled.mechanisms", " , "), "enables no SASL mechanism");
        assertRefused(Map.of("sasl.enabled.mechanisms", "PLAIN"), "enables PLAIN but has no JAAS entry");
        assertRefused(Map.of("sasl.enabled.mechanisms", "PLAIN", "sasl.jaas.config", PLAIN + " required user_a=\"secret\""),
                "must end with ';'");
        assertRefused(Map.of("connections.max.reauth.ms", "-1"), "at least 0");
    }

    @Test
    void theInterBrokerLoginNeedsAnEnabledMechanismAndItsUserAndPassword() {
        SaslClientLogin login = SaslSettings.interBrokerLogin("SASL_SSL", Map.of(
                "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"broker\" password=\"pw\";"));
        assertEquals(new SaslClientLogin("SCRAM-SHA-256", "broker", "pw"), login);
        assertFalse(login.toString().contains("pw"), login.toString());
        ConfigException notEnabled = assertThrows(ConfigException.class, () -> SaslSettings.interBrokerLogin(
                "SASL_SSL", Map.of("sasl.mechanism.inter.broker.protocol", "PLAIN")));
        assertTrue(notEnabled.getMessage().contains("PLAIN is not enabled on the inter-broker listener SASL_SSL"),
                notEnabled.getMessage());
        ConfigException noPassword = assertThrows(ConfigException.class, () -> SaslSettings.interBrokerLogin(
                "SASL_SSL", Map.of("sasl.jaas.config", "M required username=\"broker\";")));
        assertTrue(noPassword.getMessage().contains("needs username and password"), noPassword.getMessage());
    }

    private static void assertRefused(Map<String, String> props, String contained) {
        ConfigException e = assertThrows(ConfigException.class, () -> SaslSettings.forListener("SASL_SSL", props));
        assertTrue(e.getMessage().contains(contained), e.getMessage());
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }
}
