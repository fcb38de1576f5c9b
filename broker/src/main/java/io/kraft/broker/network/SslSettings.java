package io.kraft.broker.network;

import static io.kraft.config.ConfigType.LIST;
import static io.kraft.config.ConfigType.PASSWORD;
import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.HIGH;
import static io.kraft.config.Importance.LOW;
import static io.kraft.config.Importance.MEDIUM;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigException;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import io.kraft.config.Password;
import io.kraft.config.Validator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One listener's TLS settings under Kafka's {@code ssl.*} names, with the listener's own values
 * ({@code listener.name.<lowercase name>.ssl.*}) overriding the node-wide ones key by key, as in Kafka.
 *
 * @param keystoreType       {@code ssl.keystore.type}: JKS, PKCS12 or PEM (a file with the private key and its chain)
 * @param keystoreLocation   {@code ssl.keystore.location}, empty when unset
 * @param keystorePassword   {@code ssl.keystore.password}, empty when unset
 * @param keyPassword        {@code ssl.key.password}, empty when unset (the keystore's password then opens the key)
 * @param clientAuth         {@code ssl.client.auth}: none, requested or required
 * @param enabledProtocols   {@code ssl.enabled.protocols}
 * @param cipherSuites       {@code ssl.cipher.suites}; empty means the JDK's defaults
 * @param endpointIdentificationAlgorithm {@code ssl.endpoint.identification.algorithm} (https, or empty for none)
 *                           when this broker is the client: a follower fetching over TLS
 * @param keystoreKey        {@code ssl.keystore.key}: a PEM private key given inline (type PEM)
 * @param keystoreCertificateChain {@code ssl.keystore.certificate.chain}: its PEM certificate chain, inline
 * @param truststoreCertificates {@code ssl.truststore.certificates}: PEM certificates to trust, inline (type PEM)
 */
public record SslSettings(String listenerName, String keystoreType, Optional<String> keystoreLocation,
                          Optional<Password> keystorePassword, Optional<Password> keyPassword, String truststoreType,
                          Optional<String> truststoreLocation, Optional<Password> truststorePassword,
                          String clientAuth, List<String> enabledProtocols, List<String> cipherSuites,
                          String endpointIdentificationAlgorithm, Optional<Password> keystoreKey,
                          Optional<Password> keystoreCertificateChain, Optional<Password> truststoreCertificates) {
    public static final String KEYSTORE_TYPE = "ssl.keystore.type";
    public static final String KEYSTORE_LOCATION = "ssl.keystore.location";
    public static final String KEYSTORE_PASSWORD = "ssl.keystore.password";
    public static final String KEY_PASSWORD = "ssl.key.password";
    public static final String TRUSTSTORE_TYPE = "ssl.truststore.type";
    public static final String TRUSTSTORE_LOCATION = "ssl.truststore.location";
    public static final String TRUSTSTORE_PASSWORD = "ssl.truststore.password";
    public static final String CLIENT_AUTH = "ssl.client.auth";
    public static final String ENABLED_PROTOCOLS = "ssl.enabled.protocols";
    public static final String CIPHER_SUITES = "ssl.cipher.suites";
    public static final String ENDPOINT_IDENTIFICATION_ALGORITHM = "ssl.endpoint.identification.algorithm";
    public static final String KEYSTORE_KEY = "ssl.keystore.key";
    public static final String KEYSTORE_CERTIFICATE_CHAIN = "ssl.keystore.certificate.chain";
    public static final String TRUSTSTORE_CERTIFICATES = "ssl.truststore.certificates";
    /** Per-listener settings start with this, then the listener's name in lower case and a dot. */
    public static final String LISTENER_PREFIX = "listener.name.";

    public static final String CLIENT_AUTH_NONE = "none";
    public static final String CLIENT_AUTH_REQUESTED = "requested";
    public static final String CLIENT_AUTH_REQUIRED = "required";

    private static final ConfigDef DEFINITION = new ConfigDef()
            // Kafka's default; the JDK's JKS and PKCS12 key stores each read files of both formats.
            .define(KEYSTORE_TYPE, STRING, "JKS", Validator.inIgnoringCase("JKS", "PKCS12", "PEM"), HIGH,
                    "The format of the key store file: JKS, PKCS12, or PEM (the private key and its certificate chain).")
            .define(KEYSTORE_LOCATION, STRING, null, HIGH,
                    "The key store holding this broker's private key and certificate; required on SSL listeners.")
            .define(KEYSTORE_PASSWORD, PASSWORD, null, HIGH, "The password of the key store file (not used for PEM).")
            .define(KEY_PASSWORD, PASSWORD, null, HIGH,
                    "The password of the private key; by default the key store's. For PEM, of an encrypted key.")
            .define(TRUSTSTORE_TYPE, STRING, "JKS", Validator.inIgnoringCase("JKS", "PKCS12", "PEM"), MEDIUM,
                    "The format of the trust store file: JKS, PKCS12, or PEM (X.509 certificates).")
            .define(TRUSTSTORE_LOCATION, STRING, null, HIGH,
                    "The certificates trusted when verifying clients (ssl.client.auth) and leaders (inter-broker TLS).")
            .define(TRUSTSTORE_PASSWORD, PASSWORD, null, HIGH, "The password of the trust store file.")
            .define(CLIENT_AUTH, STRING, CLIENT_AUTH_NONE,
                    Validator.in(CLIENT_AUTH_NONE, CLIENT_AUTH_REQUESTED, CLIENT_AUTH_REQUIRED), MEDIUM,
                    "Whether clients must present a certificate the trust store verifies: none, requested, required.")
            .define(ENABLED_PROTOCOLS, LIST, "TLSv1.2,TLSv1.3", MEDIUM, "The TLS versions accepted.")
            .define(CIPHER_SUITES, LIST, "", LOW, "The cipher suites accepted; empty for the JDK's defaults.")
            .define(ENDPOINT_IDENTIFICATION_ALGORITHM, STRING, "https", LOW,
                    "How a follower checks its leader's certificate against the leader's host name: https, or empty"
                            + " for no check.")
            .define(KEYSTORE_KEY, PASSWORD, null, HIGH,
                    "The private key in PEM (PKCS#8) given inline, with ssl.keystore.type=PEM, instead of a file.")
            .define(KEYSTORE_CERTIFICATE_CHAIN, PASSWORD, null, HIGH,
                    "The certificate chain of ssl.keystore.key in PEM, inline.")
            .define(TRUSTSTORE_CERTIFICATES, PASSWORD, null, HIGH,
                    "Trusted certificates in PEM given inline, with ssl.truststore.type=PEM, instead of a file.");

    /** The {@code ssl.*} keys, so a node's configuration knows them (types, defaults, docs). */
    public static ConfigDef definition() {
        return DEFINITION;
    }

    /**
     * The settings of {@code listenerName}: each {@code ssl.*} key from {@code props}, overridden by
     * {@code listener.name.<lowercase name>.ssl.*} where given.
     *
     * @throws ConfigException naming the key of an invalid value
     */
    public static SslSettings forListener(String listenerName, Map<String, String> props) {
        String prefix = listenerPrefix(listenerName);
        Map<String, String> merged = new HashMap<>();
        for (Map.Entry<String, String> entry : props.entrySet()) {
            if (entry.getKey().startsWith("ssl.") && DEFINITION.contains(entry.getKey())) {
                merged.putIfAbsent(entry.getKey(), entry.getValue());
            }
        }
        for (Map.Entry<String, String> entry : props.entrySet()) {
            if (entry.getKey().startsWith(prefix)) {
                String key = entry.getKey().substring(prefix.length());
                if (DEFINITION.contains(key)) {
                    merged.put(key, entry.getValue());
                }
            }
        }
        ParsedConfig config = DEFINITION.parseOwn(merged, ConfigSource.STATIC_BROKER_CONFIG);
        return new SslSettings(listenerName, config.getString(KEYSTORE_TYPE).toUpperCase(Locale.ROOT),
                nonEmpty(config.getString(KEYSTORE_LOCATION)), password(config, KEYSTORE_PASSWORD),
                password(config, KEY_PASSWORD), config.getString(TRUSTSTORE_TYPE).toUpperCase(Locale.ROOT),
                nonEmpty(config.getString(TRUSTSTORE_LOCATION)), password(config, TRUSTSTORE_PASSWORD),
                config.getString(CLIENT_AUTH), config.getList(ENABLED_PROTOCOLS), config.getList(CIPHER_SUITES),
                Optional.ofNullable(config.getString(ENDPOINT_IDENTIFICATION_ALGORITHM)).orElse("").trim(),
                password(config, KEYSTORE_KEY), password(config, KEYSTORE_CERTIFICATE_CHAIN),
                password(config, TRUSTSTORE_CERTIFICATES));
    }

    /** {@code listener.name.<lowercase name>.}: the prefix of one listener's own settings. */
    public static String listenerPrefix(String listenerName) {
        return LISTENER_PREFIX + listenerName.toLowerCase(Locale.ROOT) + ".";
    }

    /** Whether {@code key} is one listener's {@code ssl.*} key: {@code listener.name.<name>.ssl.<known key>}. */
    public static boolean isListenerKey(String key) {
        if (!key.startsWith(LISTENER_PREFIX)) {
            return false;
        }
        int nameEnd = key.indexOf('.', LISTENER_PREFIX.length());
        return nameEnd > LISTENER_PREFIX.length() && DEFINITION.contains(key.substring(nameEnd + 1));
    }

    /** Whether {@code key} (plain or per listener) is an {@code ssl.*} key whose value must never be shown. */
    public static boolean isSensitive(String key) {
        String plain = key;
        if (isListenerKey(key)) {
            plain = key.substring(key.indexOf('.', LISTENER_PREFIX.length()) + 1);
        }
        return DEFINITION.contains(plain) && DEFINITION.key(plain).type() == PASSWORD;
    }

    /** The key as a user would set it for this listener, for error messages. */
    public String describe(String key) {
        return key + " (or " + listenerPrefix(listenerName) + key + ")";
    }

    private static Optional<String> nonEmpty(String value) {
        return Optional.ofNullable(value).map(String::trim).filter(v -> !v.isEmpty());
    }

    private static Optional<Password> password(ParsedConfig config, String key) {
        return Optional.ofNullable(config.getPassword(key));
    }
}
