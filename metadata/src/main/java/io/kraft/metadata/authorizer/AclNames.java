package io.kraft.metadata.authorizer;

import java.util.Locale;

/** Kafka's display form of the ACL enums' names: CLUSTER_ACTION is ClusterAction. */
final class AclNames {
    private AclNames() {
    }

    static String camel(String enumName) {
        StringBuilder out = new StringBuilder(enumName.length());
        for (String part : enumName.split("_")) {
            if (!part.isEmpty()) {
                out.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
            }
        }
        return out.toString();
    }
}
