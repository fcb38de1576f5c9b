package io.kraft.broker.security;

import io.kraft.broker.network.ConnectionSession;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.SecurityProtocol;
import io.kraft.broker.protocol.ApiVersionsTable;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.AclPermissionType;
import io.kraft.metadata.authorizer.AuthorizerConfig;
import io.kraft.metadata.authorizer.PatternType;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one ACL check costs a handler, as {@code RequestContext.authorize} makes it: without an authorizer (the
 * unsecured broker), and with the StandardAuthorizer over {@code acls} ACLs, half literal and half prefixed, spread
 * over {@code acls / 4} principals, for a literal match, a prefixed match and a super user.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@Threads(1)
public class AuthorizerBenchmark {
    @Param({"1000", "100000"})
    public int acls;

    private RequestContext unsecured;
    private RequestContext user;
    private RequestContext prefixUser;
    private RequestContext superUser;
    private String literalTopic;
    private String prefixedTopic;

    @Setup(Level.Trial)
    public void setUp() {
        InetSocketAddress client = new InetSocketAddress("127.0.0.1", 50_000);
        ApiVersionsTable versions = ApiVersionsTable.of(Set.of());
        unsecured = new RequestContext("PLAINTEXT", client, versions);
        RequestAuthorizer authorizer = new RequestAuthorizer(new AuthorizerConfig(Set.of("User:admin"), false));
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        long offset = 1;
        int principals = Math.max(1, acls / 4);
        for (int i = 0; i < acls; i++) {
            boolean prefixed = i % 2 == 1;
            String name = (prefixed ? "team-" + i + "-" : "topic-" + i);
            StandardAcl acl = new StandardAcl(ResourceType.TOPIC, name, prefixed ? PatternType.PREFIXED
                    : PatternType.LITERAL, "User:u" + (i % principals), "*", AclOperation.WRITE,
                    AclPermissionType.ALLOW);
            delta.replay(MetadataRecords.of(acl.toRecord(new UUID(0, i))), offset++, 1);
        }
        authorizer.publish(delta, delta.apply());
        int chosen = acls / 2;
        literalTopic = "topic-" + chosen;
        prefixedTopic = "team-" + (chosen + 1) + "-orders";
        user = context(authorizer, client, versions, "u" + (chosen % principals));
        prefixUser = context(authorizer, client, versions, "u" + ((chosen + 1) % principals));
        superUser = context(authorizer, client, versions, "admin");
        if (!literalMatch() || !prefixedMatch()) {
            throw new IllegalStateException("the benchmark's ACLs do not grant what it measures");
        }
    }

    private static RequestContext context(RequestAuthorizer authorizer, InetSocketAddress client,
                                          ApiVersionsTable versions, String name) {
        ConnectionSession session = new ConnectionSession(SecurityProtocol.SSL);
        session.authenticated(KafkaPrincipal.user(name));
        return new RequestContext("SSL", client, versions, session, authorizer);
    }

    /** A broker without authorizer.class.name: what every handler's check costs there. */
    @Benchmark
    public boolean noAuthorizer() {
        return unsecured.authorize(AclOperation.WRITE, ResourceType.TOPIC, literalTopic);
    }

    /** WRITE granted by a literal ACL among many. */
    @Benchmark
    public boolean literalMatch() {
        return user.authorize(AclOperation.WRITE, ResourceType.TOPIC, literalTopic);
    }

    /** WRITE granted by one prefixed ACL among many (the prefix walk). */
    @Benchmark
    public boolean prefixedMatch() {
        return prefixUser.authorize(AclOperation.WRITE, ResourceType.TOPIC, prefixedTopic);
    }

    /** A super user: no ACL is looked at. */
    @Benchmark
    public boolean superUser() {
        return superUser.authorize(AclOperation.ALTER, ResourceType.CLUSTER, StandardAcl.CLUSTER_NAME);
    }
}
