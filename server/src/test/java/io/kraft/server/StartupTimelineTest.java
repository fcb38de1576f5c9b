package io.kraft.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class StartupTimelineTest {
    @Test
    void listsPhasesInTheOrderTheyEndedWithTheTotal() {
        StartupTimeline timeline = StartupTimeline.sinceProcessStart(false);
        timeline.end("config");
        timeline.end("ready");
        String summary = timeline.summary();
        assertTrue(summary.matches("jvm \\d+ ms, config \\d+ ms, ready \\d+ ms \\(total \\d+ ms\\)"), summary);
    }

    @Test
    void watchesAConditionOnlyWhenAskedTo() {
        AtomicBoolean elected = new AtomicBoolean();
        CompletableFuture<Void> ready = new CompletableFuture<>();
        StartupTimeline quiet = StartupTimeline.startingNow();
        quiet.endWhen("elected", elected::get, ready);
        StartupTimeline watching = StartupTimeline.sinceProcessStart(true);
        watching.endWhen("elected", elected::get, ready);
        elected.set(true);
        await().atMost(Duration.ofSeconds(30)).until(() -> watching.summary().contains("elected"));
        assertFalse(quiet.summary().contains("elected"), quiet.summary());
        ready.complete(null);
    }
}
