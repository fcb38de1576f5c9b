package io.kraft.broker.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.config.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JaasConfigTest {
    @Test
    void readsModuleAndQuotedOrBareOptions() {
        JaasConfig config = JaasConfig.parse("sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required\n  username=\"admin\""
                        + " password=\"a b;c\\\"d\" user_alice=pw;");
        assertEquals(JaasConfig.PLAIN_LOGIN_MODULE, config.loginModule());
        assertEquals(Map.of("username", "admin", "password", "a b;c\"d", "user_alice", "pw"), config.options());
    }

    @Test
    void badEntriesNameTheKeyButNotTheValue() {
        for (String text : new String[] {"Module", "Module required user_a=\"secret", "Module maybe a=b;",
            "Module required a=b", "Module required a=b; Other required;"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> JaasConfig.parse("k.sasl.jaas.config", text));
            assertFalse(e.getMessage().contains("secret"), e.getMessage());
        }
    }
}
