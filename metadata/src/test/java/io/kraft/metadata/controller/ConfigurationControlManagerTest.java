package io.kraft.metadata.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.ConfigResource;
import io.kraft.storage.errors.Errors;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigurationControlManagerTest {
    private final ControllerTestEnv env = new ControllerTestEnv();

    private ControllerResult<Void> alter(ConfigResource resource, Map<String, Optional<String>> changes) {
        return env.commit(env.managers.incrementalAlterConfigs(resource, changes));
    }

    @Test
    void topicConfigsAreSetValidatedAndDeleted() {
        env.startBroker(1, null);
        env.commit(env.managers.createTopic(CreateTopicRequest.of("t", 1, 1)));
        ConfigResource topic = ConfigResource.topic("t");
        assertTrue(alter(topic, Map.of("retention.ms", Optional.of("5000"), "cleanup.policy", Optional.of("compact")))
                .isSuccess());
        assertEquals(Map.of("retention.ms", "5000", "cleanup.policy", "compact"), env.image.configs().configs(topic));

        ControllerResult<Void> unknown = alter(topic, Map.of("retention.mss", Optional.of("1")));
        assertEquals(Errors.INVALID_CONFIG, unknown.error().error());
        assertTrue(unknown.error().message().contains("retention.mss"));
        assertEquals(Errors.INVALID_CONFIG, alter(topic, Map.of("retention.ms", Optional.of("-7"))).error().error());
        assertEquals(Errors.INVALID_CONFIG, alter(topic, Map.of("", Optional.of("1"))).error().error());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                alter(ConfigResource.topic("missing"), Map.of("retention.ms", Optional.of("1"))).error().error());

        assertTrue(alter(topic, Map.of("retention.ms", Optional.empty())).isSuccess());
        assertEquals(Map.of("cleanup.policy", "compact"), env.image.configs().configs(topic));
        ControllerResult<Void> unchanged = alter(topic, Map.of("cleanup.policy", Optional.of("compact"),
                "segment.ms", Optional.empty()));
        assertTrue(unchanged.isSuccess());
        assertTrue(unchanged.records().isEmpty(), "setting a key to its value or deleting an unset key is a no-op");
        assertEquals(env.image.configs(), env.managers.configs().image());
    }

    @Test
    void brokerConfigsCheckKnownLogSettingsAndResourceNames() {
        assertTrue(alter(ConfigResource.broker(""), Map.of("log.retention.ms", Optional.of("60000"))).isSuccess());
        assertTrue(alter(ConfigResource.broker("3"), Map.of("some.plugin.setting", Optional.of("x"))).isSuccess());
        assertEquals(Map.of("log.retention.ms", "60000"), env.image.configs().configs(ConfigResource.broker("")));
        assertEquals(Errors.INVALID_CONFIG, alter(ConfigResource.broker("1"),
                Map.of("log.segment.bytes", Optional.of("lots"))).error().error());
        assertEquals(Errors.INVALID_REQUEST, alter(ConfigResource.broker("broker-1"),
                Map.of("log.retention.ms", Optional.of("1"))).error().error());
    }
}
