package io.kraft.server.grpc;

import io.kraft.raft.RaftDriver;
import io.kraft.raft.Voter;
import io.kraft.raft.VoterSet;
import io.kraft.raft.grpc.TransportSecurity;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this controller's endpoint in the voter set current (KIP-853's UpdateRaftVoter): a voter that restarted on
 * another CONTROLLER address finds the set naming its old one, and asks the leader to record the new one, so the
 * other voters reach it again for elections. Checks every {@link #CHECK_INTERVAL_MS} while it runs; a static quorum
 * or a node that is no voter has nothing to update.
 */
public final class VoterEndpointUpdater implements AutoCloseable {
    /** How often the set is compared with this node's endpoint; a change is needed only after a restart. */
    static final long CHECK_INTERVAL_MS = 2_000;
    private static final Logger LOG = LoggerFactory.getLogger(VoterEndpointUpdater.class);

    private final Voter self;
    private final RaftDriver driver;
    private final LeaderChannels leaders;
    private final GrpcQuorumMembership membership;
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private final ScheduledExecutorService timer;

    /**
     * @param self this voter as it is now: its id, metadata log directory and CONTROLLER endpoint (host:port)
     * @param voters the static address book, where the leader is called
     */
    public VoterEndpointUpdater(Voter self, RaftDriver driver, Map<Integer, InetSocketAddress> voters,
                                Supplier<OptionalInt> leaderId, String clusterId, TransportSecurity security) {
        this.self = self;
        this.driver = driver;
        this.leaders = new LeaderChannels(voters, leaderId, security);
        this.membership = new GrpcQuorumMembership(leaders, clusterId, GrpcQuorumDescriber.VOTER_CHANGE_DEADLINE_MS);
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "voter-endpoint-updater-" + self.id());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts checking. */
    public void start() {
        timer.scheduleWithFixedDelay(this::check, CHECK_INTERVAL_MS, CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /** Whether {@code voters} names this node with another endpoint: the one case to send an update. */
    static boolean needsUpdate(VoterSet voters, Voter self) {
        return voters.voter(self.id()).filter(v -> v.directoryId().equals(self.directoryId()))
                .map(v -> !v.endpoint().equals(self.endpoint())).orElse(false);
    }

    private void check() {
        if (inFlight.get()) {
            return;
        }
        driver.voters().thenAccept(voters -> {
            if (!needsUpdate(voters, self) || !inFlight.compareAndSet(false, true)) {
                return;
            }
            String old = voters.voter(self.id()).map(Voter::endpoint).orElse("");
            membership.updateVoter(self.id(), self.directoryId(), self.endpoint()).whenComplete((done, failure) -> {
                inFlight.set(false);
                if (failure == null) {
                    LOG.info("Voter {}: the voter set now names its endpoint {} (was {})", self.id(),
                            self.endpoint(), old);
                } else {
                    LOG.info("Voter {}: updating its endpoint from {} to {} failed, trying again: {}", self.id(), old,
                            self.endpoint(), failure.getMessage());
                }
            });
        });
    }

    /** Takes in the voter set's endpoints, where the leader is called. */
    public void votersChanged(VoterSet voters) {
        leaders.votersChanged(voters);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        leaders.close();
    }
}
