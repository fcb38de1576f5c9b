package io.kraft.server.grpc;

import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.HIGH;
import static io.kraft.config.Importance.MEDIUM;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.kraft.broker.network.Listeners;
import io.kraft.broker.network.SecurityProtocol;
import io.kraft.broker.network.SslSettings;
import io.kraft.broker.network.TlsKeyMaterial;
import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigException;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import io.kraft.raft.grpc.TransportSecurity;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The control plane's security from a node's properties. Plaintext, the default, unless the listener named first in
 * {@code controller.listener.names} maps to SSL in {@code listener.security.protocol.map}; then every control-plane
 * connection (Raft between voters, observers' fetches, brokers' calls to the controllers) is mutual TLS with the
 * {@code listener.name.<controller listener>.ssl.*} keys, else the plain {@code ssl.*} ones, and each call's peer is
 * named from its certificate ({@link ControlPlanePrincipals}); a client calling a node checks that the server's
 * certificate names it. A broker-only node uses the same keys for its calls, though it serves no controller listener
 * itself.
 */
public final class ControlPlaneSecurity {
    /** Which certificates stand for which node: a regular expression over the subject, its first group the id. */
    public static final String NODE_PRINCIPAL_PATTERN = "control.plane.node.principal.pattern";
    /** Kafka's key: administrators' principals, semicolon-separated. */
    public static final String SUPER_USERS = "super.users";
    /** Kafka's client key: how a tool connects. */
    public static final String SECURITY_PROTOCOL = "security.protocol";
    public static final String DEFAULT_NODE_PRINCIPAL_PATTERN = "CN=kraft-node-(\\d+)(,.*)?";

    private static final ConfigDef DEFINITION = new ConfigDef()
            .define(NODE_PRINCIPAL_PATTERN, STRING, DEFAULT_NODE_PRINCIPAL_PATTERN, MEDIUM,
                    "On an SSL control plane, the regular expression a node's certificate subject (RFC 2253, e.g."
                            + " CN=kraft-node-2,O=acme) matches whole, its first group the node id: a message naming"
                            + " its sender (a vote, a fetch, a broker registration) must come from that node.")
            .define(SUPER_USERS, STRING, "", HIGH,
                    "Principals (User:<certificate subject>) separated by semicolons that may make the control"
                            + " plane's calls that name no sender node, such as kraft-cli quorum describe.");

    private ControlPlaneSecurity() {
    }

    /** The keys read here, so a node's configuration knows them. */
    public static ConfigDef definition() {
        return DEFINITION;
    }

    /**
     * The security of this node's control-plane servers and clients. Plaintext reads nothing more; SSL loads the key
     * material at once.
     *
     * @throws ConfigException with one line naming the key at fault (a missing key store, a wrong password)
     */
    public static TransportSecurity from(Map<String, String> props) {
        if (Listeners.controlPlaneProtocol(props) != SecurityProtocol.SSL) {
            return TransportSecurity.plaintext();
        }
        SslSettings settings = SslSettings.forListener(Listeners.controlPlaneListenerName(props), props);
        TlsKeyMaterial material = TlsKeyMaterial.load(settings);
        if (!material.hasKey()) {
            throw missing(settings, SslSettings.KEYSTORE_LOCATION, "every node presents its own certificate there");
        }
        if (material.trustManagers().isEmpty()) {
            throw missing(settings, SslSettings.TRUSTSTORE_LOCATION, "peers' certificates are verified against it");
        }
        ParsedConfig config = DEFINITION.parseOwn(props, ConfigSource.STATIC_BROKER_CONFIG);
        ControlPlanePrincipals principals = ControlPlanePrincipals.of(config.getString(NODE_PRINCIPAL_PATTERN),
                config.getString(SUPER_USERS));
        ControlPlaneTls.client(settings, material, principals, OptionalInt.empty()); // fails now, not at first use
        return TransportSecurity.mutualTls(ControlPlaneTls.server(settings, material),
                node -> ControlPlaneTls.client(settings, material, principals, OptionalInt.of(node)), principals);
    }

    /**
     * What a tool connecting to the control plane (e.g. {@code kraft-cli quorum}) presents, from Kafka client
     * properties ({@code --command-config}): plaintext, or with {@code security.protocol=SSL} its own certificate
     * ({@code ssl.keystore.*}, which {@code super.users} must list) and the trust store.
     *
     * @throws ConfigException with one line naming the key at fault
     */
    public static ChannelCredentials toolCredentials(Map<String, String> clientProps) {
        String protocol = clientProps.getOrDefault(SECURITY_PROTOCOL, "PLAINTEXT").trim();
        if (protocol.equalsIgnoreCase("PLAINTEXT")) {
            return InsecureChannelCredentials.create();
        }
        if (!protocol.equalsIgnoreCase("SSL")) {
            throw ConfigException.invalidValue(SECURITY_PROTOCOL, protocol, "PLAINTEXT or SSL on the control plane");
        }
        SslSettings settings = SslSettings.forListener(Listeners.controlPlaneListenerName(clientProps), clientProps);
        TlsKeyMaterial material = TlsKeyMaterial.load(settings);
        if (!material.hasKey()) {
            throw missing(settings, SslSettings.KEYSTORE_LOCATION, "the control plane accepts only certificates");
        }
        if (material.trustManagers().isEmpty()) {
            throw missing(settings, SslSettings.TRUSTSTORE_LOCATION, "the controllers' certificates are verified"
                    + " against it");
        }
        return ControlPlaneTls.client(settings, material, null, OptionalInt.empty());
    }

    private static ConfigException missing(SslSettings settings, String key, String why) {
        return new ConfigException("The control plane's listener " + settings.listenerName() + " is SSL but "
                + settings.describe(key) + " is not set: " + why);
    }
}
