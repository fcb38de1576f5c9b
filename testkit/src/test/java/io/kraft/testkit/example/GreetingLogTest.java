package io.kraft.testkit.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.testkit.KraftCluster;
import io.kraft.testkit.KraftTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's example: an application's test against an embedded single-node cluster, as a user writes it. */
@KraftTest
class GreetingLogTest {
    @Test
    void readsBackWhatItWrote(KraftCluster cluster) throws Exception {
        try (GreetingLog log = new GreetingLog(cluster.bootstrapServers(), "greetings")) {
            log.greet("ada");
            log.greet("linus");
            assertEquals(List.of("hello, ada", "hello, linus"), log.read(2, Duration.ofSeconds(60)));
        }
    }
}
