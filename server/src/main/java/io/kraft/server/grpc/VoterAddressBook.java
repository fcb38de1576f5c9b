package io.kraft.server.grpc;

import io.kraft.raft.Voter;
import io.kraft.raft.VoterSet;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Where this node calls each controller: {@code controller.quorum.voters} (or what the bootstrap servers named) at
 * start, then every endpoint the voter set in the metadata log names (KIP-853), so a controller added later is
 * reached once it leads. A removed voter keeps its entry: asking it costs a redirect, and it may come back.
 */
public final class VoterAddressBook {
    private final Map<Integer, InetSocketAddress> addresses = new ConcurrentSkipListMap<>();

    VoterAddressBook(Map<Integer, InetSocketAddress> initial) {
        addresses.putAll(initial);
    }

    InetSocketAddress get(int id) {
        return addresses.get(id);
    }

    boolean contains(int id) {
        return addresses.containsKey(id);
    }

    /** The known controllers in id order. */
    List<Integer> ids() {
        return List.copyOf(addresses.keySet());
    }

    Map<Integer, InetSocketAddress> snapshot() {
        return Map.copyOf(addresses);
    }

    /** Takes in the set's endpoints; returns the ids whose address changed (their open channels are stale). */
    List<Integer> update(VoterSet voters) {
        List<Integer> moved = new ArrayList<>();
        for (Voter voter : voters.voters().values()) {
            if (voter.endpoint().isEmpty()) {
                continue;
            }
            InetSocketAddress address = endpoint(voter.endpoint());
            InetSocketAddress previous = addresses.put(voter.id(), address);
            if (previous != null && !previous.equals(address)) {
                moved.add(voter.id());
            }
        }
        return moved;
    }

    /** {@code host:port} as a voter's endpoint names it (an IPv6 host in brackets). */
    public static InetSocketAddress endpoint(String endpoint) {
        int colon = endpoint.lastIndexOf(':');
        String host = endpoint.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return InetSocketAddress.createUnresolved(host, Integer.parseInt(endpoint.substring(colon + 1)));
    }
}
