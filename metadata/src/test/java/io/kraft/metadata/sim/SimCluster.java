package io.kraft.metadata.sim;

import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.fault.RecordingFaultHandler;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * A simulated metadata cluster on one seeded {@link SimScheduler}: several real controllers over the {@link SimRaft}
 * quorum model, brokers that register and heartbeat, and an admin. Faults are injected at random (controller
 * crashes and restarts, isolation from the quorum, a clogged network, broker pauses, stops, restarts and controlled
 * shutdowns, leader resignation), and every invariant is checked after every event.
 */
final class SimCluster {
    /** How long a request waits for its answer before the caller gives up on that controller. */
    static final long REQUEST_TIMEOUT_MS = 1_000;
    private static final long MAX_MESSAGE_DELAY_MS = 3;

    private final long seed;
    private final SimScheduler scheduler;
    private final CommittedLog committedLog = new CommittedLog();
    private final SimRaft raft;
    private final List<Integer> controllerIds = new ArrayList<>();
    private final Map<Integer, SimController> controllers = new TreeMap<>();
    private final Map<Integer, SimBroker> brokers = new TreeMap<>();
    private final SimAdmin admin;
    private final SimTransactions transactions;
    private final RecordingFaultHandler faults = new RecordingFaultHandler();
    private final List<Invariant> invariants;
    private final AcknowledgedWritesAreCommitted acknowledgements = new AcknowledgedWritesAreCommitted();
    private boolean faultsRunning;
    private int faultsInjected;
    private int controllerCrashes;
    private long acknowledged;

    SimCluster(long seed, int controllerCount, int brokerCount) {
        this.seed = seed;
        this.scheduler = new SimScheduler(seed);
        for (int id = 1; id <= controllerCount; id++) {
            controllerIds.add(id);
        }
        this.raft = new SimRaft(scheduler, controllerIds, committedLog);
        this.invariants = List.of(new PartitionLeaderInIsrOrOffline(), new EligibleLeaderReplicasWellFormed(),
                new BrokerEpochsOnlyGrow(),
                new OneLeaderPerPartitionEpoch(), acknowledgements, new SameImageAtSameOffset(),
                new StoredStateMatchesImage(), new OneActiveControllerPerEpoch(), new PublishedImagesInLogOrder(),
                new LeadersAreUsableBetweenBatches(), new TransactionDecisionsAreKept(), new NoFaults());
        for (int id : controllerIds) {
            controllers.put(id, SimController.start(id, scheduler, raft, faults));
        }
        for (int id = 100; id < 100 + brokerCount; id++) {
            SimBroker broker = new SimBroker(id, this);
            brokers.put(id, broker);
            broker.start();
        }
        this.admin = new SimAdmin(this);
        this.transactions = new SimTransactions(this);
    }

    // ---- what the parts reach --------------------------------------------------------------------------------

    long seed() {
        return seed;
    }

    SimScheduler scheduler() {
        return scheduler;
    }

    SimRaft raft() {
        return raft;
    }

    CommittedLog committedLog() {
        return committedLog;
    }

    SimAdmin admin() {
        return admin;
    }

    SimTransactions transactions() {
        return transactions;
    }

    /** Running controllers by id. */
    Map<Integer, SimController> controllers() {
        return controllers;
    }

    Map<Integer, SimBroker> brokers() {
        return brokers;
    }

    List<String> faults() {
        return faults.faults();
    }

    long acknowledged() {
        return acknowledged;
    }

    int faultsInjected() {
        return faultsInjected;
    }

    int controllerCrashes() {
        return controllerCrashes;
    }

    /** The controller serving the highest epoch, if any serves. */
    Optional<SimController> activeController() {
        return controllers.values().stream().filter(c -> c.controller.activeEpoch().isPresent())
                .max((a, b) -> Integer.compare(a.controller.activeEpoch().getAsInt(),
                        b.controller.activeEpoch().getAsInt()));
    }

    /** The metadata offset brokers report: what their observers would have applied, the committed log's end. */
    long metadataOffsetSeenByBrokers() {
        return committedLog.image().offset();
    }

    /** The broker's control-plane connection closed: the controller it talked to sees it (if that one is up). */
    void connectionClosed(int brokerId) {
        int target = guessActive();
        SimController controller = controllers.get(target);
        if (controller != null) {
            scheduler.after(scheduler.delayMs(0, MAX_MESSAGE_DELAY_MS), "broker " + brokerId + " connection closes",
                    () -> controller.controller.connectionClosed(brokerId));
        }
    }

    void acknowledge(Acknowledgement acknowledgement) {
        acknowledged++;
        acknowledgements.add(acknowledgement);
    }

    /**
     * Sends a request over the simulated network to the controller a client would try (Raft's leader half of the
     * time, any controller otherwise, so NOT_CONTROLLER answers happen). An answer is an acknowledgement at the
     * moment the controller gives it ({@code acknowledgement} may return null for none); {@code onReply} hears it
     * after the way back, or an error (NOT_CONTROLLER, unreachable, timed out).
     */
    <T> void call(String what, Function<QuorumController, CompletableFuture<T>> request,
                  Function<T, Acknowledgement> acknowledgement, BiConsumer<T, Throwable> onReply) {
        int target = guessActive();
        boolean[] done = new boolean[1];
        BiConsumer<T, Throwable> replyOnce = (answer, error) -> {
            if (!done[0]) {
                done[0] = true;
                onReply.accept(answer, error);
            }
        };
        scheduler.after(scheduler.delayMs(0, MAX_MESSAGE_DELAY_MS), what + " reaches controller " + target, () -> {
            SimController controller = controllers.get(target);
            if (controller == null) {
                replyOnce.accept(null, new ControllerException(Errors.NOT_CONTROLLER, "controller " + target
                        + " is down"));
                return;
            }
            request.apply(controller.controller).whenComplete((answer, error) -> {
                if (error == null) {
                    Acknowledgement written = acknowledgement.apply(answer);
                    if (written != null) {
                        acknowledge(written);
                    }
                }
                scheduler.after(scheduler.delayMs(0, MAX_MESSAGE_DELAY_MS), what + " answered",
                        () -> replyOnce.accept(answer, error == null ? null : unwrap(error)));
            });
        });
        scheduler.after(REQUEST_TIMEOUT_MS, what + " times out",
                () -> replyOnce.accept(null, new TimeoutException(what + " timed out")));
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null
                ? error.getCause() : error;
    }

    private int guessActive() {
        if (raft.leaderId() >= 0 && scheduler.random().nextBoolean()) {
            return raft.leaderId();
        }
        return controllerIds.get(scheduler.random().nextInt(controllerIds.size()));
    }

    // ---- faults ----------------------------------------------------------------------------------------------

    void crashController(int id) {
        SimController controller = controllers.remove(id);
        if (controller != null) {
            controller.crash();
            raft.crash(id);
            controllerCrashes++;
        }
    }

    void restartController(int id) {
        if (!controllers.containsKey(id)) {
            controllers.put(id, SimController.start(id, scheduler, raft, faults));
        }
    }

    /** Injects a random fault every few hundred ms until {@code untilMs}. */
    void injectRandomFaults(long untilMs) {
        faultsRunning = true;
        scheduler.after(scheduler.delayMs(100, 500), "fault", () -> injectFault(untilMs));
    }

    private void injectFault(long untilMs) {
        if (!faultsRunning || scheduler.nowMs() >= untilMs) {
            return;
        }
        faultsInjected++;
        int controllerId = controllerIds.get(scheduler.random().nextInt(controllerIds.size()));
        List<Integer> brokerIds = new ArrayList<>(brokers.keySet());
        SimBroker broker = brokers.get(brokerIds.get(scheduler.random().nextInt(brokerIds.size())));
        switch (scheduler.random().nextInt(12)) {
            case 0 -> crashController(raft.leaderId() >= 0 && scheduler.random().nextBoolean()
                    ? raft.leaderId() : controllerId);
            case 1 -> restartController(controllerId);
            case 2 -> raft.isolate(controllerId);
            case 3 -> raft.heal(controllerId);
            case 4 -> {
                raft.clog(true);
                scheduler.after(scheduler.delayMs(100, 600), "network unclogs", () -> raft.clog(false));
            }
            case 5 -> broker.pause();
            case 6 -> broker.resume();
            case 7 -> broker.stop(scheduler.random().nextBoolean());
            case 8 -> {
                if (broker.state() == SimBroker.State.DOWN) {
                    broker.start();
                }
            }
            case 9 -> broker.shutDown();
            case 10 -> activeController().ifPresent(active -> raft.member(active.id).client
                    .resign(active.controller.activeEpoch().orElse(-1)));
            default -> { } // a quiet spell
        }
        scheduler.after(scheduler.delayMs(100, 500), "fault", () -> injectFault(untilMs));
    }

    /** Ends the faults: every controller runs and reaches the quorum, the network flows, every broker runs. */
    void heal() {
        faultsRunning = false;
        raft.clog(false);
        for (int id : controllerIds) {
            restartController(id);
            raft.heal(id);
        }
        for (SimBroker broker : brokers.values()) {
            broker.resume();
            if (broker.isShuttingDown()) {
                broker.stop(true);
            }
            if (broker.state() == SimBroker.State.DOWN) {
                broker.start();
            }
        }
    }

    // ---- running ---------------------------------------------------------------------------------------------

    /**
     * Creates a topic through the admin, retrying (under a new name each time, in case an answer was lost after the
     * write committed) until one creation is acknowledged or {@code maxMs} passes.
     *
     * @return the name of the created topic, or empty
     */
    Optional<String> createTopicUntilAcknowledged(String prefix, int partitions, int replicationFactor, long maxMs) {
        long deadlineMs = scheduler.nowMs() + maxMs;
        int attempt = 0;
        while (scheduler.nowMs() < deadlineMs) {
            String name = prefix + "-" + attempt++;
            boolean[] answered = new boolean[2];
            admin.createTopic(name, partitions, replicationFactor, (result, error) -> {
                answered[0] = true;
                answered[1] = error == null;
            });
            runUntil(() -> answered[0], deadlineMs - scheduler.nowMs());
            if (answered[1]) {
                return Optional.of(name);
            }
            runFor(50);
        }
        return Optional.empty();
    }

    /** Whether every running controller's image has reached the committed log's end. */
    boolean controllersCaughtUp() {
        long end = committedLog.image().offset();
        return controllers.size() == controllerIds.size()
                && controllers.values().stream().allMatch(c -> c.controller.image().offset() == end);
    }

    /** Whether every broker runs and the committed log shows it registered with its epoch and unfenced. */
    boolean brokersUnfenced() {
        return brokers.values().stream().allMatch(b -> {
            var registration = committedLog.image().cluster().broker(b.id);
            return b.state() == SimBroker.State.RUNNING && registration != null
                    && registration.epoch() == b.brokerEpoch() && !registration.fenced();
        });
    }

    long nowMs() {
        return scheduler.nowMs();
    }

    void runFor(long durationMs) {
        long untilMs = scheduler.nowMs() + durationMs;
        while (scheduler.runNext(untilMs)) {
            checkInvariants();
        }
    }

    /** Runs until {@code condition} holds (true) or {@code maxMs} of simulated time passed (false). */
    boolean runUntil(BooleanSupplier condition, long maxMs) {
        long untilMs = scheduler.nowMs() + maxMs;
        while (!condition.getAsBoolean()) {
            if (!scheduler.runNext(untilMs)) {
                return condition.getAsBoolean();
            }
            checkInvariants();
        }
        return true;
    }

    private void checkInvariants() {
        for (Invariant invariant : invariants) {
            invariant.check(this);
        }
    }

    InvariantViolation violation(String message) {
        return new InvariantViolation(describe(message));
    }

    /** A failure report: what, when, the cluster's state and the last events. */
    String describe(String message) {
        StringBuilder text = new StringBuilder(message).append("\n  seed ").append(seed).append(" at ")
                .append(scheduler.nowMs()).append(" ms after ").append(scheduler.eventsRun()).append(" events; ")
                .append(raft.describe());
        controllers.values().forEach(c -> text.append("\n  controller ").append(c.id).append(": active ")
                .append(c.controller.activeEpoch()).append(", image at ").append(c.controller.image().offset()));
        brokers.values().forEach(b -> text.append("\n  broker ").append(b.id).append(": ").append(b.state())
                .append(" epoch ").append(b.brokerEpoch()));
        text.append("\n  last events:\n  ").append(scheduler.trace());
        return text.toString();
    }
}
