package io.kraft.broker.security;

import java.util.Objects;

/**
 * Who a connection acts as, in Kafka's form {@code type:name} (e.g. {@code User:alice}): what ACLs, quotas and
 * {@code super.users} name. A connection that has not authenticated is {@link #ANONYMOUS}.
 */
public record KafkaPrincipal(String type, String name) {
    /** Kafka's principal type for users. */
    public static final String USER_TYPE = "User";
    /** The principal of a connection that did not authenticate (PLAINTEXT, or TLS without a client certificate). */
    public static final KafkaPrincipal ANONYMOUS = new KafkaPrincipal(USER_TYPE, "ANONYMOUS");

    public KafkaPrincipal {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    /** A user principal. */
    public static KafkaPrincipal user(String name) {
        return new KafkaPrincipal(USER_TYPE, name);
    }

    /**
     * Parses {@code type:name} as {@code super.users} and ACL principals are written; the name may itself hold colons.
     *
     * @throws IllegalArgumentException if there is no {@code :} or either side is empty
     */
    public static KafkaPrincipal parse(String text) {
        int colon = text.indexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("principal '" + text + "' is not of the form type:name (e.g. User:alice)");
        }
        return new KafkaPrincipal(text.substring(0, colon), text.substring(colon + 1));
    }

    @Override
    public String toString() {
        return type + ":" + name;
    }
}
