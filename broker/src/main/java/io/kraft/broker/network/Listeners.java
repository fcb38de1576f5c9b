package io.kraft.broker.network;

import io.kraft.config.ConfigException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node's named listeners under Kafka's keys ({@code listeners}, {@code listener.security.protocol.map},
 * {@code advertised.listeners}, {@code controller.listener.names}, {@code inter.broker.listener.name}), checked
 * together: every name is mapped to a known protocol, names and fixed ports are unique, advertised and
 * inter-broker names are listeners of this node. Protocols not served yet (anything but PLAINTEXT or SSL on the
 * control plane) are refused here rather than served as plaintext.
 */
public final class Listeners {
    public static final String LISTENERS = SocketServerConfig.LISTENERS;
    public static final String ADVERTISED_LISTENERS = SocketServerConfig.ADVERTISED_LISTENERS;
    public static final String LISTENER_SECURITY_PROTOCOL_MAP = SocketServerConfig.LISTENER_SECURITY_PROTOCOL_MAP;
    public static final String CONTROLLER_LISTENER_NAMES = SocketServerConfig.CONTROLLER_LISTENER_NAMES;
    public static final String INTER_BROKER_LISTENER_NAME = "inter.broker.listener.name";
    /** Kafka's default map; a controller listener name missing from it is PLAINTEXT when the map is not set. */
    public static final String DEFAULT_SECURITY_PROTOCOL_MAP =
            "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL";
    public static final String DEFAULT_CONTROLLER_LISTENER_NAME = "CONTROLLER";

    private static final Pattern LISTENER =
            Pattern.compile("([A-Za-z][A-Za-z0-9_-]*)://([^:/\\[\\]]*|\\[[0-9a-fA-F:.]+\\]):(\\d{1,5})");

    /**
     * One listener.
     *
     * @param host the host to bind; empty binds every interface
     * @param port 0 picks an ephemeral port
     */
    public record Listener(String name, String host, int port, SecurityProtocol protocol) {
        /** Its {@code NAME://host:port} form. */
        @Override
        public String toString() {
            return name + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    private final List<Listener> all;
    private final List<String> controllerNames;
    private final String interBrokerListenerName;

    private Listeners(List<Listener> all, List<String> controllerNames, String interBrokerListenerName) {
        this.all = List.copyOf(all);
        this.controllerNames = List.copyOf(controllerNames);
        this.interBrokerListenerName = interBrokerListenerName;
    }

    /**
     * Parses and checks {@code listeners} (comma-separated {@code NAME://host:port}) with the other listener keys of
     * {@code props}.
     *
     * @throws ConfigException with one line naming the problem
     */
    public static Listeners parse(String listeners, Map<String, String> props) {
        List<String> controllerNames = names(props.getOrDefault(CONTROLLER_LISTENER_NAMES,
                DEFAULT_CONTROLLER_LISTENER_NAME));
        Map<String, SecurityProtocol> protocols = protocolMap(props.get(LISTENER_SECURITY_PROTOCOL_MAP), controllerNames);
        List<Listener> parsed = new ArrayList<>();
        Map<String, Listener> byName = new LinkedHashMap<>();
        Map<Integer, Listener> byPort = new LinkedHashMap<>();
        for (String entry : entries(listeners)) {
            Matcher matcher = matcher(LISTENERS, entry);
            String name = matcher.group(1);
            SecurityProtocol protocol = protocols.get(name.toUpperCase(Locale.ROOT));
            if (protocol == null) {
                throw new ConfigException("Listener " + name + " has no security protocol: add " + name
                        + ":PLAINTEXT (or SSL) to " + LISTENER_SECURITY_PROTOCOL_MAP + " (now " + protocols.keySet() + ")");
            }
            Listener listener = new Listener(name, host(matcher), Integer.parseInt(matcher.group(3)), protocol);
            if (byName.putIfAbsent(name.toUpperCase(Locale.ROOT), listener) != null) {
                throw new ConfigException("Listener name " + name + " appears more than once in " + LISTENERS + ": "
                        + listeners.trim());
            }
            if (listener.port() != 0) {
                Listener other = byPort.putIfAbsent(listener.port(), listener);
                if (other != null) {
                    throw new ConfigException("Listeners " + other.name() + " and " + name + " both use port "
                            + listener.port() + " in " + LISTENERS + ": give each its own port");
                }
            }
            boolean controller = controllerNames.contains(name);
            if (controller) {
                checkControlPlane(name, protocol);
            }
            parsed.add(listener);
        }
        String advertised = props.get(ADVERTISED_LISTENERS);
        if (advertised != null && !advertised.isBlank()) {
            List<String> seen = new ArrayList<>();
            for (String entry : entries(advertised)) {
                String name = matcher(ADVERTISED_LISTENERS, entry).group(1);
                if (!byName.containsKey(name.toUpperCase(Locale.ROOT))) {
                    throw new ConfigException(ADVERTISED_LISTENERS + " names " + name + ", which is not in "
                            + LISTENERS + " " + byName.values().stream().map(Listener::name).toList());
                }
                if (seen.contains(name)) {
                    throw new ConfigException("Listener name " + name + " appears more than once in "
                            + ADVERTISED_LISTENERS);
                }
                seen.add(name);
            }
        }
        List<Listener> brokerListeners = parsed.stream().filter(l -> !controllerNames.contains(l.name())).toList();
        String configured = Optional.ofNullable(props.get(INTER_BROKER_LISTENER_NAME)).map(String::trim)
                .filter(name -> !name.isEmpty()).orElse(null);
        String interBroker = configured;
        if (configured != null) {
            if (brokerListeners.stream().noneMatch(l -> l.name().equals(configured))) {
                throw new ConfigException(INTER_BROKER_LISTENER_NAME + " " + configured + " is not one of the broker"
                        + " listeners " + brokerListeners.stream().map(Listener::name).toList() + " in " + LISTENERS);
            }
        } else if (!brokerListeners.isEmpty()) {
            interBroker = brokerListeners.get(0).name();
        }
        return new Listeners(parsed, controllerNames, interBroker);
    }

    /** Every listener, in the configured order. */
    public List<Listener> all() {
        return all;
    }

    /** The listeners that serve Kafka clients (every one not named in {@code controller.listener.names}). */
    public List<Listener> brokerListeners() {
        return all.stream().filter(l -> !controllerNames.contains(l.name())).toList();
    }

    /** The control plane's listeners of this node. */
    public List<Listener> controllerListeners() {
        return all.stream().filter(l -> controllerNames.contains(l.name())).toList();
    }

    /** {@code controller.listener.names}; the first is the one brokers use to reach controllers. */
    public List<String> controllerNames() {
        return controllerNames;
    }

    /** The listener followers fetch on: {@code inter.broker.listener.name}, else the first broker listener. */
    public Optional<Listener> interBrokerListener() {
        return all.stream().filter(l -> l.name().equals(interBrokerListenerName)).findFirst();
    }

    /**
     * The control plane's listener name: the first of {@code controller.listener.names}. Brokers reach the
     * controllers with it too, even when it is not among their own {@code listeners}, as in Kafka.
     */
    public static String controlPlaneListenerName(Map<String, String> props) {
        List<String> names = names(props.getOrDefault(CONTROLLER_LISTENER_NAMES, DEFAULT_CONTROLLER_LISTENER_NAME));
        return names.isEmpty() ? DEFAULT_CONTROLLER_LISTENER_NAME : names.get(0);
    }

    /**
     * The security protocol of the control plane (Raft between controllers, brokers' calls to them): what
     * {@code listener.security.protocol.map} maps {@link #controlPlaneListenerName} to, PLAINTEXT when the map is not
     * set.
     *
     * @throws ConfigException if the map does not name the listener, or maps it to a protocol not served there
     */
    public static SecurityProtocol controlPlaneProtocol(Map<String, String> props) {
        String name = controlPlaneListenerName(props);
        List<String> controllerNames = names(props.getOrDefault(CONTROLLER_LISTENER_NAMES,
                DEFAULT_CONTROLLER_LISTENER_NAME));
        SecurityProtocol protocol = protocolMap(props.get(LISTENER_SECURITY_PROTOCOL_MAP), controllerNames)
                .get(name.toUpperCase(Locale.ROOT));
        if (protocol == null) {
            throw new ConfigException("Controller listener " + name + " has no security protocol: add " + name
                    + ":PLAINTEXT (or SSL) to " + LISTENER_SECURITY_PROTOCOL_MAP);
        }
        checkControlPlane(name, protocol);
        return protocol;
    }

    private static void checkControlPlane(String name, SecurityProtocol protocol) {
        if (protocol != SecurityProtocol.PLAINTEXT && protocol != SecurityProtocol.SSL) {
            throw new ConfigException("Controller listener " + name + ": security protocol " + protocol
                    + " is not supported on the control plane; map it to PLAINTEXT or SSL in "
                    + LISTENER_SECURITY_PROTOCOL_MAP);
        }
    }

    private static Map<String, SecurityProtocol> protocolMap(String configured, List<String> controllerNames) {
        Map<String, SecurityProtocol> map = new LinkedHashMap<>();
        String source = configured == null || configured.isBlank() ? DEFAULT_SECURITY_PROTOCOL_MAP : configured;
        for (String entry : entries(source)) {
            int colon = entry.indexOf(':');
            if (colon <= 0 || colon == entry.length() - 1) {
                throw new ConfigException("Entry '" + entry + "' of " + LISTENER_SECURITY_PROTOCOL_MAP
                        + " is not of the form NAME:PROTOCOL");
            }
            String name = entry.substring(0, colon).trim().toUpperCase(Locale.ROOT);
            SecurityProtocol protocol = SecurityProtocol.forName(entry.substring(colon + 1),
                    LISTENER_SECURITY_PROTOCOL_MAP);
            if (map.put(name, protocol) != null) {
                throw new ConfigException("Listener name " + name + " appears more than once in "
                        + LISTENER_SECURITY_PROTOCOL_MAP);
            }
        }
        if (configured == null || configured.isBlank()) {
            // As Kafka in KRaft mode: with no map configured, the controller listeners are plaintext.
            controllerNames.forEach(name -> map.putIfAbsent(name.toUpperCase(Locale.ROOT), SecurityProtocol.PLAINTEXT));
        }
        return map;
    }

    private static List<String> names(String list) {
        return entries(list);
    }

    private static List<String> entries(String list) {
        List<String> entries = new ArrayList<>();
        for (String entry : list.split(",")) {
            if (!entry.isBlank()) {
                entries.add(entry.trim());
            }
        }
        return entries;
    }

    private static Matcher matcher(String key, String entry) {
        Matcher matcher = LISTENER.matcher(entry);
        if (!matcher.matches() || Integer.parseInt(matcher.group(3)) > 65_535) {
            throw new ConfigException("Entry '" + entry + "' of " + key + " is not of the form NAME://host:port");
        }
        return matcher;
    }

    private static String host(Matcher matcher) {
        String host = matcher.group(2);
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }
}
