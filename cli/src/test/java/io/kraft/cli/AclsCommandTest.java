package io.kraft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kraft-cli acls} against an in-process node with the StandardAuthorizer (the plaintext client is
 * {@code User:ANONYMOUS}, a super user here): kafka-acls.sh's options and output, and its refusals.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AclsCommandTest {
    private ClientNode node;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        node = new ClientNode(dir, Map.of("authorizer.class.name",
                "org.apache.kafka.metadata.authorizer.StandardAuthorizer", "super.users", "User:ANONYMOUS"));
    }

    @AfterAll
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private CliRun acls(String... args) {
        String[] full = new String[args.length + 3];
        full[0] = "acls";
        full[1] = "--bootstrap-server";
        full[2] = node.bootstrap();
        System.arraycopy(args, 0, full, 3, args.length);
        return CliRun.of(full);
    }

    private static CliRun succeeded(CliRun run) {
        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        return run;
    }

    @Test
    void addListAndRemoveAsKafkaAclsDoes() {
        String added = succeeded(acls("--add", "--allow-principal", "User:alice", "--operation", "Read",
                "--operation", "Describe", "--topic", "orders")).out();
        assertTrue(added.contains("Adding ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders,"
                + " patternType=LITERAL)`:"), added);
        assertTrue(added.contains("(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)"), added);
        assertTrue(added.contains("Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders,"
                + " patternType=LITERAL)`:"), added);

        succeeded(acls("--add", "--deny-principal", "User:bob", "--deny-host", "10.0.0.9", "--operation", "Write",
                "--topic", "ord", "--resource-pattern-type", "prefixed"));
        String listed = succeeded(acls("--list", "--topic", "orders", "--resource-pattern-type", "match")).out();
        assertTrue(listed.contains("operation=READ"), listed);
        assertTrue(listed.contains("(principal=User:bob, host=10.0.0.9, operation=WRITE, permissionType=DENY)"),
                listed);
        String bobs = succeeded(acls("--list", "--principal", "User:bob")).out();
        assertTrue(bobs.contains("User:bob") && !bobs.contains("User:alice"), bobs);

        String removed = succeeded(acls("--remove", "--force", "--allow-principal", "User:alice", "--operation",
                "Read", "--topic", "orders")).out();
        assertTrue(removed.contains("operation=READ"), removed);
        String left = succeeded(acls("--list", "--topic", "orders")).out();
        assertFalse(left.contains("operation=READ"), left);
        assertTrue(left.contains("operation=DESCRIBE"), left);
        succeeded(acls("--remove", "--force", "--topic", "orders"));
        succeeded(acls("--remove", "--force", "--topic", "ord", "--resource-pattern-type", "prefixed"));
        assertEquals("", succeeded(acls("--list", "--topic", "orders", "--resource-pattern-type", "match")).out());
    }

    @Test
    void producerAndConsumerAddKafkasSets() {
        succeeded(acls("--add", "--allow-principal", "User:carol", "--producer", "--topic", "events",
                "--transactional-id", "tx", "--idempotent"));
        succeeded(acls("--add", "--allow-principal", "User:carol", "--consumer", "--topic", "events", "--group",
                "readers"));
        String listed = succeeded(acls("--list", "--principal", "User:carol")).out();
        for (String expected : new String[] {"name=events", "operation=WRITE", "operation=CREATE", "operation=READ",
            "name=tx", "resourceType=TRANSACTIONAL_ID", "name=readers", "resourceType=GROUP",
            "operation=IDEMPOTENT_WRITE", "resourceType=CLUSTER, name=kafka-cluster"}) {
            assertTrue(listed.contains(expected), expected + " in " + listed);
        }
        succeeded(acls("--remove", "--force", "--topic", "events", "--group", "readers", "--transactional-id", "tx",
                "--cluster"));
        assertEquals("", succeeded(acls("--list", "--principal", "User:carol")).out());
    }

    @Test
    void kafkasAclCommandWorksAgainstThisBrokerAndPrintsWhatOursPrints() throws Exception {
        String tool = "org.apache.kafka.tools.AclCommand";
        String[] add = {"--add", "--allow-principal", "User:dave", "--operation", "Read", "--topic", "ledger"};
        KafkaTool.Ran kafkaAdd = KafkaTool.run(tool, node.bootstrap(), add);
        assertEquals(0, kafkaAdd.exitCode(), kafkaAdd.out());
        assertTrue(kafkaAdd.out().contains("(principal=User:dave, host=*, operation=READ, permissionType=ALLOW)"),
                kafkaAdd.out());
        String[] list = {"--list", "--topic", "ledger"};
        KafkaTool.Ran kafkaList = KafkaTool.run(tool, node.bootstrap(), list);
        assertEquals(0, kafkaList.exitCode(), kafkaList.out());
        assertEquals(kafkaList.lines(), succeeded(acls(list)).out().lines().toList());
        KafkaTool.Ran kafkaRemove = KafkaTool.run(tool, node.bootstrap(), "--remove", "--force", "--topic", "ledger");
        assertEquals(0, kafkaRemove.exitCode(), kafkaRemove.out());
        assertEquals("", succeeded(acls(list)).out());
    }

    @Test
    void badOptionsAreRefusedWithOneLine() {
        CliRun noPrincipal = acls("--add", "--operation", "Read", "--topic", "t");
        assertEquals(2, noPrincipal.exitCode());
        assertTrue(noPrincipal.err().contains("--allow-principal"), noPrincipal.err());
        CliRun wrongOperation = acls("--add", "--allow-principal", "User:a", "--operation", "Write", "--group", "g");
        assertTrue(wrongOperation.err().contains("ResourceType GROUP only supports operations"),
                wrongOperation.err());
        CliRun badPrincipal = acls("--add", "--allow-principal", "alice", "--topic", "t");
        assertTrue(badPrincipal.err().contains("type:name"), badPrincipal.err());
        CliRun matchOnAdd = acls("--add", "--allow-principal", "User:a", "--topic", "t", "--resource-pattern-type",
                "match");
        assertTrue(matchOnAdd.err().contains("literal or prefixed"), matchOnAdd.err());
    }
}
