package io.kraft.server.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.kraft.broker.TestWaits;
import io.kraft.broker.network.TestCertificateAuthority;
import io.kraft.proto.raft.DescribeQuorumRequest;
import io.kraft.proto.raft.DescribeQuorumResponse;
import io.kraft.proto.raft.RaftServiceGrpc;
import io.kraft.raft.QuorumDescription;
import io.kraft.raft.grpc.GrpcRaftTransport;
import io.kraft.config.ConfigException;
import io.kraft.raft.grpc.ControlPlanePeer;
import io.kraft.raft.grpc.TransportSecurity;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The control plane's security from a node's keys: plaintext by default, one-line errors, principals named. */
class ControlPlaneSecurityTest {
    @TempDir
    static Path dir;
    static TestCertificateAuthority authority;
    static Path keyStore;

    @BeforeAll
    static void certificates() throws Exception {
        authority = TestCertificateAuthority.create(dir, "CN=test-ca");
        keyStore = authority.issue("CN=kraft-node-1");
    }

    private static Map<String, String> ssl() throws Exception {
        return authority.controlPlaneProperties(keyStore);
    }

    @Test
    void plaintextIsTheDefaultAndReadsNoKeyMaterial() {
        Map<String, String> props = Map.of("ssl.keystore.location", "/no/such/file",
                "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,SSL:SSL,CONTROLLER:PLAINTEXT");
        assertSame(TransportSecurity.plaintext(), ControlPlaneSecurity.from(props));
        assertSame(TransportSecurity.plaintext(), ControlPlaneSecurity.from(Map.of()));
    }

    @Test
    void anSslControllerListenerGivesMutualTlsWithTheListenersKeysOverThePlainOnes() throws Exception {
        assertTrue(ControlPlaneSecurity.from(ssl()).isTls());
        Map<String, String> prefixed = ssl();
        prefixed.put("ssl.keystore.location", "/no/such/file");
        prefixed.put("listener.name.controller.ssl.keystore.location", keyStore.toString());
        assertTrue(ControlPlaneSecurity.from(prefixed).isTls());
    }

    @Test
    void misconfiguredKeyMaterialIsOneLineNamingTheKey() throws Exception {
        Map<String, String> noKeyStore = ssl();
        noKeyStore.remove("ssl.keystore.location");
        assertOneLine(noKeyStore, "The control plane's listener CONTROLLER is SSL but ssl.keystore.location (or"
                + " listener.name.controller.ssl.keystore.location) is not set");
        Map<String, String> noTrustStore = ssl();
        noTrustStore.remove("ssl.truststore.location");
        assertOneLine(noTrustStore, "ssl.truststore.location (or listener.name.controller.ssl.truststore.location)"
                + " is not set");
        Map<String, String> missingFile = ssl();
        missingFile.put("listener.name.controller.ssl.keystore.location", "/no/such/file.p12");
        assertOneLine(missingFile, "Invalid ssl.keystore.location for listener CONTROLLER: no such file:"
                + " /no/such/file.p12");
        Map<String, String> wrongPassword = ssl();
        wrongPassword.put("ssl.keystore.password", "not-the-password");
        assertOneLine(wrongPassword, "Invalid ssl.keystore.password for listener CONTROLLER");
        Map<String, String> badPattern = ssl();
        badPattern.put("control.plane.node.principal.pattern", "CN=kraft-node-.*");
        assertOneLine(badPattern, "control.plane.node.principal.pattern");
        Map<String, String> sasl = ssl();
        sasl.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:SASL_SSL");
        assertOneLine(sasl, "is not supported on the control plane");
    }

    private static void assertOneLine(Map<String, String> props, String expected) {
        ConfigException error = assertThrows(ConfigException.class, () -> ControlPlaneSecurity.from(props));
        assertTrue(error.getMessage().contains(expected), error.getMessage());
        assertFalse(error.getMessage().contains("\n"), error.getMessage());
    }

    @Test
    void theServersHostNameIsCheckedUnlessTheEndpointIdentificationAlgorithmIsEmptyAndItsNodeAlways()
            throws Exception {
        int port = TestWaits.freePort();
        // The certificates name localhost and 127.0.0.1; 127.0.0.2 reaches the same server under another name.
        GrpcRaftTransport server = new GrpcRaftTransport(1, "cluster", Map.of(1, new InetSocketAddress("localhost",
                port)), port, 5_000, List.of(), ControlPlaneSecurity.from(ssl()));
        server.serveDescribeQuorum(() -> CompletableFuture.completedFuture(
                new QuorumDescription(OptionalInt.of(1), 3, 10, List.of())));
        server.start(message -> { });
        try {
            InetSocketAddress otherName = new InetSocketAddress("127.0.0.2", port);
            StatusRuntimeException refused = assertThrows(StatusRuntimeException.class,
                    () -> describe(ControlPlaneSecurity.from(ssl()), otherName));
            assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode());
            Map<String, String> unchecked = ssl();
            unchecked.put("listener.name.controller.ssl.endpoint.identification.algorithm", "");
            assertEquals(1, describe(ControlPlaneSecurity.from(unchecked), otherName).getLeaderId());
            InetSocketAddress rightName = new InetSocketAddress("localhost", port);
            assertEquals(1, describe(ControlPlaneSecurity.from(ssl()), rightName).getLeaderId());
            // A client calling node 2 finds node 1's certificate there: that is no node 2, whatever its host name.
            StatusRuntimeException notTheNode = assertThrows(StatusRuntimeException.class,
                    () -> describe(ControlPlaneSecurity.from(ssl()), 2, rightName));
            assertEquals(Status.Code.UNAVAILABLE, notTheNode.getStatus().getCode());
        } finally {
            server.close();
        }
    }

    @Test
    void pemAndJksKeyMaterialServeTheControlPlaneAsPkcs12Does() throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            store.load(in, TestCertificateAuthority.PASSWORD.toCharArray());
        }
        Certificate[] chain = store.getCertificateChain("node");
        StringBuilder keyAndChain = new StringBuilder(pem("PRIVATE KEY",
                store.getKey("node", TestCertificateAuthority.PASSWORD.toCharArray()).getEncoded()));
        for (Certificate certificate : chain) {
            keyAndChain.append(pem("CERTIFICATE", certificate.getEncoded()));
        }
        Map<String, String> pem = ssl();
        pem.put("ssl.keystore.type", "PEM");
        pem.put("ssl.keystore.location", Files.writeString(dir.resolve("node-1.pem"), keyAndChain).toString());
        pem.remove("ssl.keystore.password");
        pem.put("ssl.truststore.type", "PEM");
        pem.put("ssl.truststore.location", Files.writeString(dir.resolve("ca.pem"),
                pem("CERTIFICATE", chain[chain.length - 1].getEncoded())).toString());
        pem.remove("ssl.truststore.password");
        Map<String, String> jks = ssl();
        jks.put("ssl.keystore.type", "JKS"); // the JDK's JKS store reads PKCS12 files too, as in Kafka
        int port = TestWaits.freePort();
        InetSocketAddress address = new InetSocketAddress("localhost", port);
        GrpcRaftTransport server = new GrpcRaftTransport(1, "cluster", Map.of(1, address), port, 5_000, List.of(),
                ControlPlaneSecurity.from(pem));
        server.serveDescribeQuorum(() -> CompletableFuture.completedFuture(
                new QuorumDescription(OptionalInt.of(1), 3, 10, List.of())));
        server.start(message -> { });
        try {
            assertEquals(1, describe(ControlPlaneSecurity.from(ssl()), address).getLeaderId());
            assertEquals(1, describe(ControlPlaneSecurity.from(pem), address).getLeaderId());
            assertEquals(1, describe(ControlPlaneSecurity.from(jks), address).getLeaderId());
        } finally {
            server.close();
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static DescribeQuorumResponse describe(TransportSecurity security, InetSocketAddress address) {
        return describe(security, 1, address);
    }

    private static DescribeQuorumResponse describe(TransportSecurity security, int nodeId, InetSocketAddress address) {
        ManagedChannel channel = security.channelBuilder(nodeId, address).build();
        try {
            return RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
                    .describeQuorum(DescribeQuorumRequest.getDefaultInstance());
        } finally {
            channel.shutdownNow();
        }
    }

    @Test
    void aCertificateNamesItsNodeByThePatternAndAdministratorsBySuperUsers() {
        ControlPlanePrincipals principals = ControlPlanePrincipals.of(
                ControlPlaneSecurity.DEFAULT_NODE_PRINCIPAL_PATTERN, "User:CN=ops,O=acme; User:CN=backup");
        assertEquals(new ControlPlanePeer("User:CN=kraft-node-12,O=acme", OptionalInt.of(12), false),
                principals.identify("CN=kraft-node-12,O=acme"));
        assertEquals(OptionalInt.of(3), principals.identify("CN=kraft-node-3").nodeId());
        assertFalse(principals.identify("CN=kraft-node-x").mayCall());
        assertFalse(principals.identify("O=acme,CN=kraft-node-3").mayCall(), "the pattern matches the whole subject");
        assertFalse(principals.identify("CN=kraft-node-99999999999").mayCall(), "an id out of range names no node");
        ControlPlanePeer ops = principals.identify("CN=ops,O=acme");
        assertTrue(ops.superUser() && ops.mayCall() && ops.nodeId().isEmpty());
        assertTrue(principals.identify("CN=backup").superUser());
        assertFalse(principals.identify("CN=ops").mayCall());

        ControlPlanePrincipals byHost = ControlPlanePrincipals.of("CN=controller(\\d+)\\.example\\.com", "");
        assertEquals(OptionalInt.of(2), byHost.identify("CN=controller2.example.com").nodeId());
        assertThrows(ConfigException.class, () -> ControlPlanePrincipals.of("CN=(", ""));
        assertThrows(ConfigException.class, () -> ControlPlanePrincipals.of("CN=node-\\d+", ""));
        assertThrows(ConfigException.class, () -> ControlPlanePrincipals.of("CN=node-(\\d+)", "CN=ops"));
    }
}
