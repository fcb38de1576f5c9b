package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.network.TestCertificateAuthority;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three dedicated controllers and two dedicated brokers as processes whose whole control plane is mutual TLS, each
 * node with a certificate naming it: they elect, the brokers register and serve the Admin client, the cluster
 * survives kill -9 of its active controller, and {@code kraft-cli quorum} describes it with an administrator's
 * certificate but not without one.
 */
class ControlPlaneTlsProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String PASSWORD = TestCertificateAuthority.PASSWORD;

    @RegisterExtension
    final ProcessRegistry processes = ProcessRegistry.forTests();

    @TempDir
    Path dataDir;

    @Test
    void aClusterWhoseControlPlaneIsTlsSurvivesTheKillOfItsActiveController() throws Exception {
        TestCertificateAuthority authority = TestCertificateAuthority.create(dataDir.resolve("ca"), "CN=kraft-test-ca");
        Path trustStore = authority.trustStore();
        Map<Integer, Path> keyStores = new TreeMap<>();
        for (int id = 1; id <= 5; id++) {
            keyStores.put(id, authority.issue("CN=kraft-node-" + id + ",O=kraft-test"));
        }
        Path adminStore = authority.issue("CN=kraft-admin,O=kraft-test");
        CombinedCluster cluster = CombinedCluster.dedicated(processes, dataDir, 3, 2, WAIT, node -> node
                .with("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:SSL")
                .with("listener.name.controller.ssl.keystore.type", "PKCS12")
                .with("listener.name.controller.ssl.keystore.location", keyStores.get(node.nodeId()).toString())
                .with("listener.name.controller.ssl.keystore.password", PASSWORD)
                .with("ssl.truststore.type", "PKCS12")
                .with("ssl.truststore.location", trustStore.toString())
                .with("ssl.truststore.password", PASSWORD)
                .with("super.users", "User:CN=kraft-admin,O=kraft-test")
                .with("broker.connection.loss.grace.ms", "1000"));
        cluster.startAll();
        for (int controller = 1; controller <= 3; controller++) {
            assertTrue(cluster.process(controller).stderr().contains("(mutual TLS)"),
                    cluster.process(controller).describeLogs());
        }

        try (Admin admin = cluster.admin()) {
            createUntilItSucceeds(admin, new NewTopic("before", 2, (short) 2));
            int active = cluster.activeController();
            long killedAtNanos = System.nanoTime();
            cluster.kill(active);
            createUntilItSucceeds(admin, new NewTopic("after", 2, (short) 2));
            int successor = cluster.activeController();
            System.out.printf("[control plane over TLS] kill -9 of active controller %d -> controller %d active; a"
                    + " topic created through a broker after %d ms%n", active, successor,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAtNanos));
            assertNotEquals(active, successor);
            assertEquals(Set.of("before", "after"), admin.listTopics().names().get(30, TimeUnit.SECONDS));
            assertEquals(2, admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size(), "both brokers serve");

            Path adminConfig = Files.writeString(dataDir.resolve("admin.properties"), String.join("\n",
                    "security.protocol=SSL", "ssl.keystore.type=PKCS12", "ssl.keystore.location=" + adminStore,
                    "ssl.keystore.password=" + PASSWORD, "ssl.truststore.type=PKCS12",
                    "ssl.truststore.location=" + trustStore, "ssl.truststore.password=" + PASSWORD, ""));
            String controller = "127.0.0.1:" + cluster.controllerPort(successor);
            JvmProcess described = processes.start(JvmSpec.kraftCli("quorum-describe", "quorum",
                    "--bootstrap-controller", controller, "--command-config", adminConfig.toString(), "describe",
                    "--status"));
            assertEquals(0, described.waitForExit(WAIT), described.describeLogs());
            assertTrue(described.stdout().contains("LeaderId:               " + successor), described.stdout());
            JvmProcess plaintext = processes.start(JvmSpec.kraftCli("quorum-plaintext", "quorum",
                    "--bootstrap-controller", controller, "describe", "--status"));
            assertEquals(1, plaintext.waitForExit(WAIT), plaintext.describeLogs());
        }
    }

    /** Creates a topic, retrying while the controller quorum fails over; an earlier attempt may have created it. */
    private static void createUntilItSucceeds(Admin admin, NewTopic topic) throws Exception {
        long deadlineNanos = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try {
                admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                if (e.getCause() instanceof TopicExistsException) {
                    return;
                }
                if (System.nanoTime() - deadlineNanos > 0) {
                    throw new AssertionError("could not create " + topic.name(), e);
                }
            }
        }
    }
}
