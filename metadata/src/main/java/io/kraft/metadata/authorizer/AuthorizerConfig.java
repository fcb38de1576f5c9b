package io.kraft.metadata.authorizer;

import static io.kraft.config.ConfigType.BOOLEAN;
import static io.kraft.config.ConfigType.STRING;
import static io.kraft.config.Importance.HIGH;
import static io.kraft.config.Importance.MEDIUM;

import io.kraft.config.ConfigDef;
import io.kraft.config.ConfigException;
import io.kraft.config.ConfigSource;
import io.kraft.config.ParsedConfig;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The authorizer's settings under Kafka's names: {@code authorizer.class.name} switches it on (only Kafka's
 * StandardAuthorizer class name is known: ours answers to it, so a Kafka node's file carries over),
 * {@code super.users} (semicolon-separated principals allowed everything) and {@code allow.everyone.if.no.acl.found}.
 *
 * @param superUsers                 principals in {@code type:name} form
 * @param allowEveryoneIfNoAclFound  whether a resource with no ACL at all is open to everyone
 */
public record AuthorizerConfig(Set<String> superUsers, boolean allowEveryoneIfNoAclFound) {
    public static final String AUTHORIZER_CLASS_NAME = "authorizer.class.name";
    public static final String SUPER_USERS = "super.users";
    public static final String ALLOW_EVERYONE_IF_NO_ACL_FOUND = "allow.everyone.if.no.acl.found";
    /** Kafka's KRaft authorizer; the one class name this broker's built-in authorizer answers to. */
    public static final String STANDARD_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

    public AuthorizerConfig {
        superUsers = Set.copyOf(superUsers);
    }

    public static ConfigDef definition() {
        return new ConfigDef()
                .define(AUTHORIZER_CLASS_NAME, STRING, "", HIGH,
                        "The authorizer; empty for none (every request is allowed). " + STANDARD_AUTHORIZER
                                + " enables ACLs.")
                .define(SUPER_USERS, STRING, "", MEDIUM,
                        "Principals allowed every operation, separated by semicolons (e.g. User:admin;User:broker).")
                .define(ALLOW_EVERYONE_IF_NO_ACL_FOUND, BOOLEAN, false, MEDIUM,
                        "Whether a resource that no ACL names is open to everyone.");
    }

    /**
     * The authorizer's settings, or empty when {@code authorizer.class.name} is unset or empty.
     *
     * @throws ConfigException (one line) for another class name or a principal not of the form type:name
     */
    public static Optional<AuthorizerConfig> fromProperties(Map<String, String> properties) {
        ParsedConfig config = definition().parseOwn(properties, ConfigSource.STATIC_BROKER_CONFIG);
        String className = config.getString(AUTHORIZER_CLASS_NAME).strip();
        if (className.isEmpty()) {
            return Optional.empty();
        }
        if (!className.equals(STANDARD_AUTHORIZER)) {
            throw ConfigException.invalidValue(AUTHORIZER_CLASS_NAME, className,
                    STANDARD_AUTHORIZER + " (the built-in authorizer) or empty");
        }
        Set<String> superUsers = new LinkedHashSet<>();
        for (String principal : config.getString(SUPER_USERS).split(";")) {
            String trimmed = principal.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            int colon = trimmed.indexOf(':');
            if (colon <= 0 || colon == trimmed.length() - 1) {
                throw ConfigException.invalidValue(SUPER_USERS, config.getString(SUPER_USERS),
                        "principals of the form type:name separated by ';', but '" + trimmed + "' is not");
            }
            superUsers.add(trimmed);
        }
        return Optional.of(new AuthorizerConfig(superUsers, config.getBoolean(ALLOW_EVERYONE_IF_NO_ACL_FOUND)));
    }
}
