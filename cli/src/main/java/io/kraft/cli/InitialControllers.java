package io.kraft.cli;

import io.kraft.raft.Voter;
import io.kraft.raft.VoterSet;
import io.kraft.storage.MetaProperties;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code kraft-cli format --initial-controllers id@host:port:directoryId,...} (KIP-853): the voters a dynamic quorum
 * starts with, each with the directory id its own metadata log directory is formatted with.
 */
final class InitialControllers {
    private InitialControllers() {
    }

    /**
     * Parses the list.
     *
     * @throws IllegalArgumentException naming the entry that is not {@code id@host:port:directoryId}
     */
    static VoterSet parse(String value) {
        List<Voter> voters = new ArrayList<>();
        for (String item : value.split(",")) {
            String entry = item.trim();
            int at = entry.indexOf('@');
            int lastColon = entry.lastIndexOf(':');
            int portColon = lastColon < 0 ? -1 : entry.lastIndexOf(':', lastColon - 1);
            if (at <= 0 || portColon <= at + 1 || lastColon <= portColon + 1 || lastColon == entry.length() - 1) {
                throw new IllegalArgumentException("entry '" + entry + "' is not id@host:port:directoryId");
            }
            int id;
            int port;
            try {
                id = Integer.parseInt(entry.substring(0, at));
                port = Integer.parseInt(entry.substring(portColon + 1, lastColon));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("entry '" + entry + "' has a non-numeric id or port");
            }
            if (id < 0 || port <= 0 || port > 65535) {
                throw new IllegalArgumentException("entry '" + entry + "' has an id or port out of range");
            }
            String directory = entry.substring(lastColon + 1);
            if (!MetaProperties.isValidUuid(directory)) {
                throw new IllegalArgumentException("entry '" + entry + "' has directory id '" + directory
                        + "', not a uuid such as 'kraft-cli random-uuid' prints");
            }
            final int voterId = id;
            if (voters.stream().anyMatch(v -> v.id() == voterId)) {
                throw new IllegalArgumentException("controller " + id + " is named twice");
            }
            voters.add(new Voter(id, MetaProperties.fromKafkaUuid(directory), entry.substring(at + 1, lastColon)));
        }
        return VoterSet.of(voters);
    }
}
