package io.kraft.server.grpc;

import io.kraft.config.ConfigException;
import io.kraft.raft.grpc.ControlPlanePeer;
import io.kraft.raft.grpc.PeerIdentifier;
import java.util.LinkedHashSet;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Names control-plane peers as Kafka names TLS clients: the principal is {@code User:} followed by the certificate's
 * subject in RFC 2253 form (Kafka's default {@code ssl.principal.mapping.rules}). The node a certificate stands for is
 * the first group of {@code control.plane.node.principal.pattern} matched against the whole subject; principals
 * listed in {@code super.users} (semicolon-separated, as in Kafka) are administrators.
 */
final class ControlPlanePrincipals implements PeerIdentifier {
    private static final String USER = "User:";

    private final Pattern nodePattern;
    private final Set<String> superUsers;

    private ControlPlanePrincipals(Pattern nodePattern, Set<String> superUsers) {
        this.nodePattern = nodePattern;
        this.superUsers = Set.copyOf(superUsers);
    }

    /**
     * @param nodePattern a regular expression whose first group is a node id
     * @param superUsers  {@code super.users}: principals separated by semicolons
     * @throws ConfigException naming the key of an invalid value
     */
    static ControlPlanePrincipals of(String nodePattern, String superUsers) {
        Pattern pattern;
        try {
            pattern = Pattern.compile(nodePattern);
        } catch (PatternSyntaxException e) {
            throw ConfigException.invalidValue(ControlPlaneSecurity.NODE_PRINCIPAL_PATTERN, nodePattern,
                    "a regular expression: " + e.getDescription());
        }
        if (pattern.matcher("").groupCount() < 1) {
            throw ConfigException.invalidValue(ControlPlaneSecurity.NODE_PRINCIPAL_PATTERN, nodePattern,
                    "a regular expression whose first group captures the node id, e.g. CN=kraft-node-(\\d+)(,.*)?");
        }
        Set<String> admins = new LinkedHashSet<>();
        for (String entry : superUsers == null ? new String[0] : superUsers.split(";")) {
            if (entry.isBlank()) {
                continue;
            }
            String principal = entry.trim();
            if (!principal.startsWith(USER) || principal.length() == USER.length()) {
                throw ConfigException.invalidValue(ControlPlaneSecurity.SUPER_USERS, superUsers,
                        "principals of the form User:name separated by semicolons, but '" + principal + "' is not");
            }
            admins.add(principal);
        }
        return new ControlPlanePrincipals(pattern, admins);
    }

    @Override
    public ControlPlanePeer identify(String subject) {
        String principal = USER + subject;
        return new ControlPlanePeer(principal, nodeId(subject), superUsers.contains(principal));
    }

    private OptionalInt nodeId(String subject) {
        Matcher matcher = nodePattern.matcher(subject);
        if (!matcher.matches() || matcher.group(1) == null) {
            return OptionalInt.empty();
        }
        try {
            int id = Integer.parseInt(matcher.group(1));
            return id < 0 ? OptionalInt.empty() : OptionalInt.of(id);
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
