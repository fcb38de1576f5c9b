package io.kraft.broker.network;

import static io.kraft.config.ConfigType.LIST;
import static io.kraft.config.ConfigType.LONG;
import static io.kraft.config.ConfigType.PASSWORD;
import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.HIGH;
import static io.kraft.config.Importance.MEDIUM;

import io.kraft.broker.security.JaasConfig;
import io.kraft.broker.security.PlainSaslServer;
import io.kraft.broker.security.SaslClientLogin;
import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigException;
import io.kraft.config.Validator;
import io.kraft.metadata.image.ScramMechanism;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One SASL listener's settings under Kafka's names: the mechanisms it offers ({@code sasl.enabled.mechanisms}, or
 * {@code listener.name.<name>.sasl.enabled.mechanisms}), PLAIN's users (the {@code user_<name>="<password>"} options
 * of {@code listener.name.<name>.plain.sasl.jaas.config}, else {@code sasl.jaas.config}) and how long a session lasts
 * before the client must re-authenticate ({@code connections.max.reauth.ms}, KIP-368; 0 never).
 *
 * <p>Kafka's default mechanism is GSSAPI (Kerberos), which is not served here; the default is SCRAM-SHA-256 and
 * SCRAM-SHA-512: their credentials live in the cluster metadata ({@code kraft-cli format --add-scram}, Kafka's
 * Admin API), no password reaches the broker in clear even on SASL_PLAINTEXT, and no file lists passwords.
 */
public record SaslSettings(String listenerName, List<String> enabledMechanisms, Map<String, String> plainPasswords,
                           long reauthMs) {
    public static final String SASL_ENABLED_MECHANISMS = "sasl.enabled.mechanisms";
    public static final String SASL_JAAS_CONFIG = "sasl.jaas.config";
    public static final String SASL_MECHANISM_INTER_BROKER_PROTOCOL = "sasl.mechanism.inter.broker.protocol";
    public static final String CONNECTIONS_MAX_REAUTH_MS = "connections.max.reauth.ms";
    public static final String DEFAULT_MECHANISMS = "SCRAM-SHA-256,SCRAM-SHA-512";
    /** Every mechanism this broker serves. */
    public static final List<String> SUPPORTED_MECHANISMS = List.of(PlainSaslServer.MECHANISM,
            ScramMechanism.SCRAM_SHA_256.mechanismName(), ScramMechanism.SCRAM_SHA_512.mechanismName());

    private static final ConfigDef DEFINITION = new ConfigDef()
            .define(SASL_ENABLED_MECHANISMS, LIST, DEFAULT_MECHANISMS, Validator.nonEmptyList(), MEDIUM,
                    "The SASL mechanisms SASL listeners offer: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 (Kafka's default"
                            + " GSSAPI is not served). Per listener: listener.name.<name>.sasl.enabled.mechanisms.")
            .define(SASL_JAAS_CONFIG, PASSWORD, null, MEDIUM,
                    "A JAAS login module entry; for brokers better given per listener and mechanism as"
                            + " listener.name.<name>.<mechanism>.sasl.jaas.config. PLAIN's users are its"
                            + " user_<name>=\"<password>\" options; username and password are this broker's own"
                            + " login on the inter-broker listener.")
            .define(SASL_MECHANISM_INTER_BROKER_PROTOCOL, STRING, null, MEDIUM,
                    "The SASL mechanism followers log in with on a SASL inter-broker listener; by default the first"
                            + " mechanism that listener enables (Kafka's default, GSSAPI, is not served).")
            .define(CONNECTIONS_MAX_REAUTH_MS, LONG, 0L, Validator.atLeast(0), MEDIUM,
                    "How long a SASL session lasts before the client must re-authenticate on the same connection"
                            + " (KIP-368); a connection past it is closed at its next other request. 0: never.");

    public SaslSettings {
        enabledMechanisms = List.copyOf(enabledMechanisms);
        plainPasswords = Map.copyOf(plainPasswords);
    }

    public static ConfigDef definition() {
        return DEFINITION;
    }

    /** Never PLAIN's passwords: the user names only. */
    @Override
    public String toString() {
        return "SaslSettings[listener=" + listenerName + ", mechanisms=" + enabledMechanisms + ", plainUsers="
                + plainPasswords.keySet() + ", reauthMs=" + reauthMs + "]";
    }

    /**
     * The settings of the SASL listener {@code listenerName}.
     *
     * @throws ConfigException naming the key of a mechanism not served, or a PLAIN listener without its users
     */
    public static SaslSettings forListener(String listenerName, Map<String, String> props) {
        String prefix = SslSettings.listenerPrefix(listenerName);
        List<String> mechanisms = enabledMechanisms(listenerName, props);
        Map<String, String> plain = Map.of();
        if (mechanisms.contains(PlainSaslServer.MECHANISM)) {
            JaasConfig jaas = jaas(listenerName, PlainSaslServer.MECHANISM, props).orElseThrow(() ->
                    new ConfigException("Listener " + listenerName + " enables PLAIN but has no JAAS entry: set "
                            + prefix + "plain." + SASL_JAAS_CONFIG + " (or " + SASL_JAAS_CONFIG + ") to "
                            + JaasConfig.PLAIN_LOGIN_MODULE + " required user_<name>=\"<password>\" ...;"));
            Map<String, String> users = new LinkedHashMap<>();
            jaas.options().forEach((name, value) -> {
                if (name.startsWith("user_") && name.length() > "user_".length()) {
                    users.put(name.substring("user_".length()), value);
                }
            });
            plain = users;
        }
        String reauth = props.getOrDefault(prefix + CONNECTIONS_MAX_REAUTH_MS,
                props.getOrDefault(CONNECTIONS_MAX_REAUTH_MS, "0"));
        long reauthMs;
        try {
            reauthMs = Long.parseLong(reauth.trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(CONNECTIONS_MAX_REAUTH_MS + " must be a number of milliseconds, not '" + reauth
                    + "'");
        }
        if (reauthMs < 0) {
            throw new ConfigException(CONNECTIONS_MAX_REAUTH_MS + " must be at least 0, not " + reauthMs);
        }
        return new SaslSettings(listenerName, mechanisms, plain, reauthMs);
    }

    /** The mechanisms {@code listenerName} offers, checked to be served here. */
    public static List<String> enabledMechanisms(String listenerName, Map<String, String> props) {
        String listenerKey = SslSettings.listenerPrefix(listenerName) + SASL_ENABLED_MECHANISMS;
        String key = props.containsKey(listenerKey) ? listenerKey : SASL_ENABLED_MECHANISMS;
        List<String> mechanisms = new ArrayList<>();
        for (String entry : props.getOrDefault(key, DEFAULT_MECHANISMS).split(",")) {
            String mechanism = entry.trim().toUpperCase(Locale.ROOT);
            if (mechanism.isEmpty() || mechanisms.contains(mechanism)) {
                continue;
            }
            if (!SUPPORTED_MECHANISMS.contains(mechanism)) {
                throw new ConfigException("SASL mechanism " + mechanism + " in " + key + " is not supported; this"
                        + " broker serves " + String.join(", ", SUPPORTED_MECHANISMS));
            }
            mechanisms.add(mechanism);
        }
        if (mechanisms.isEmpty()) {
            throw new ConfigException(key + " enables no SASL mechanism on listener " + listenerName);
        }
        return mechanisms;
    }

    /**
     * The JAAS entry for {@code mechanism} on {@code listenerName}:
     * {@code listener.name.<name>.<mechanism>.sasl.jaas.config}, else {@code sasl.jaas.config}.
     */
    public static Optional<JaasConfig> jaas(String listenerName, String mechanism, Map<String, String> props) {
        String listenerKey = SslSettings.listenerPrefix(listenerName) + mechanism.toLowerCase(Locale.ROOT) + "."
                + SASL_JAAS_CONFIG;
        String key = props.containsKey(listenerKey) ? listenerKey : SASL_JAAS_CONFIG;
        String text = props.get(key);
        return text == null || text.isBlank() ? Optional.empty() : Optional.of(JaasConfig.parse(key, text));
    }

    /**
     * Whether {@code key} is one listener's SASL key: {@code listener.name.<name>.sasl.enabled.mechanisms},
     * {@code listener.name.<name>.<mechanism>.sasl.jaas.config} or {@code listener.name.<name>.connections.max.reauth.ms}.
     */
    public static boolean isListenerKey(String key) {
        if (!key.startsWith(SslSettings.LISTENER_PREFIX)) {
            return false;
        }
        int nameEnd = key.indexOf('.', SslSettings.LISTENER_PREFIX.length());
        if (nameEnd <= SslSettings.LISTENER_PREFIX.length()) {
            return false;
        }
        String rest = key.substring(nameEnd + 1);
        if (rest.equals(SASL_ENABLED_MECHANISMS) || rest.equals(CONNECTIONS_MAX_REAUTH_MS)) {
            return true;
        }
        int mechanismEnd = rest.indexOf('.');
        return mechanismEnd > 0 && rest.substring(mechanismEnd + 1).equals(SASL_JAAS_CONFIG);
    }

    /**
     * This broker's own login on the SASL inter-broker listener {@code listenerName}: the mechanism
     * ({@code sasl.mechanism.inter.broker.protocol}, by default the first the listener enables; it must be enabled
     * there) and the {@code username} and {@code password} options of the listener's JAAS entry for it.
     *
     * @throws ConfigException naming what is missing
     */
    public static SaslClientLogin interBrokerLogin(String listenerName, Map<String, String> props) {
        List<String> enabled = enabledMechanisms(listenerName, props);
        String configured = props.get(SASL_MECHANISM_INTER_BROKER_PROTOCOL);
        String mechanism = configured == null || configured.isBlank() ? enabled.get(0)
                : configured.trim().toUpperCase(Locale.ROOT);
        if (!enabled.contains(mechanism)) {
            throw new ConfigException(SASL_MECHANISM_INTER_BROKER_PROTOCOL + " " + mechanism + " is not enabled on"
                    + " the inter-broker listener " + listenerName + " (it enables " + String.join(", ", enabled) + ")");
        }
        String key = SslSettings.listenerPrefix(listenerName) + mechanism.toLowerCase(Locale.ROOT) + "."
                + SASL_JAAS_CONFIG;
        JaasConfig jaas = jaas(listenerName, mechanism, props).orElseThrow(() -> new ConfigException(
                "The inter-broker listener " + listenerName + " uses SASL " + mechanism + " but " + key + " (or "
                        + SASL_JAAS_CONFIG + ") is not set: give it username=\"...\" password=\"...\""));
        if (jaas.option("username") == null || jaas.option("password") == null) {
            throw new ConfigException(key + " (or " + SASL_JAAS_CONFIG + ") needs username and password options: this"
                    + " broker logs in with them on the inter-broker listener " + listenerName);
        }
        return new SaslClientLogin(mechanism, jaas.option("username"), jaas.option("password"));
    }
}
