package io.kraft.broker.lifecycle;

import io.kraft.broker.concurrent.ExecutorShutdown;
import io.kraft.metadata.controller.BrokerHeartbeatReply;
import io.kraft.metadata.controller.BrokerHeartbeatRequest;
import io.kraft.metadata.controller.BrokerRegistrationRequest;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataSource;
import io.kraft.storage.errors.Errors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this node's broker registered and unfenced with the active controller (in-process or over the control plane): registers once the
 * controller is active, then heartbeats on a timer, registering again if the controller forgot the epoch. At the end
 * it runs the controlled shutdown: heartbeats asking to shut down until the controller has moved this broker's
 * leaderships and fenced it.
 *
 * <p>It also carries the broker's log directories to the controller (KIP-858): the online ones with each
 * registration, the failed ones with each heartbeat. A failed directory the controller has not taken out of this
 * broker's registration within {@code log.dir.failure.timeout.ms} stops the broker: its partitions there would stay
 * led by a replica that cannot serve them.
 */
public final class BrokerLifecycle implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerLifecycle.class);
    /** How soon a refused registration or heartbeat is retried before the broker first serves. */
    private static final long STARTUP_RETRY_MS = 50;
    private static final long ANSWER_TIMEOUT_MS = 5_000;
    private static final long CONTROLLED_SHUTDOWN_POLL_MS = 50;

    private final Controller controller;
    private final MetadataSource metadata;
    private final BrokerRegistrationRequest registration;
    private final long heartbeatIntervalMs;
    private final long controlledShutdownTimeoutMs;
    private final LongConsumer onFirstUnfenced;
    private final LogDirStatus logDirs;
    private final long logDirFailureTimeoutMs;
    private final Consumer<String> stopBroker;
    /** When each failed directory was first reported, until the controller acknowledged it (lifecycle thread only). */
    private final Map<UUID, Long> unacknowledgedSinceNanos = new HashMap<>();
    private boolean unfencedOnce;
    private final ScheduledExecutorService timer;
    private volatile long brokerEpoch = -1;
    /** The last refusal of this node's certificate that was logged (on the lifecycle thread). */
    private String lastRefusal;
    private volatile boolean fenced = true;
    /** A quick retry is scheduled; read and written on the timer thread only. */
    private boolean retryPending;
    private ScheduledFuture<?> heartbeats;

    /**
     * @param onFirstUnfenced runs on the lifecycle thread once, when the controller first unfences this incarnation,
     *                        with the metadata offset the broker reported: its metadata up to there includes everything
     *                        committed before it registered
     */
    public BrokerLifecycle(Controller controller, MetadataSource metadata, String clusterId, int brokerId, List<Endpoint> listeners,
                    BrokerLifecycleConfig config, LongConsumer onFirstUnfenced) {
        this(controller, metadata, clusterId, brokerId, listeners, config, onFirstUnfenced, LogDirStatus.NONE,
                reason -> LOG.error("{}", reason));
    }

    /**
     * @param logDirs    the broker's log directories, online and failed
     * @param stopBroker stops the broker in order, with one line saying why
     */
    public BrokerLifecycle(Controller controller, MetadataSource metadata, String clusterId, int brokerId,
                           List<Endpoint> listeners, BrokerLifecycleConfig config, LongConsumer onFirstUnfenced,
                           LogDirStatus logDirs, Consumer<String> stopBroker) {
        this.logDirs = logDirs;
        this.logDirFailureTimeoutMs = config.logDirFailureTimeoutMs();
        this.stopBroker = stopBroker;
        this.controller = controller;
        this.metadata = metadata;
        // A fresh incarnation id per process start, as a restarted Kafka broker sends.
        this.registration = new BrokerRegistrationRequest(clusterId, brokerId, UUID.randomUUID(), listeners,
                config.rack());
        this.heartbeatIntervalMs = config.heartbeatIntervalMs();
        this.controlledShutdownTimeoutMs = config.controlledShutdownTimeoutMs();
        this.onFirstUnfenced = onFirstUnfenced;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "broker-lifecycle-" + brokerId);
            thread.setDaemon(true);
            return thread;
        });
    }

    public void start() {
        heartbeats = timer.scheduleWithFixedDelay(this::tick, 0, heartbeatIntervalMs, TimeUnit.MILLISECONDS);
    }

    /** One quick retry at a time (on the timer thread, like every tick). */
    private void retrySoon() {
        if (retryPending) {
            return;
        }
        try {
            timer.schedule(() -> {
                retryPending = false;
                tick();
            }, STARTUP_RETRY_MS, TimeUnit.MILLISECONDS);
            retryPending = true;
        } catch (RejectedExecutionException closed) {
            // stopping anyway
        }
    }

    /** Heartbeats now rather than at the next tick (a log directory failed: the controller should hear at once). */
    public void heartbeatNow() {
        if (heartbeats != null && !heartbeats.isCancelled()) {
            try {
                timer.execute(this::tick);
            } catch (RejectedExecutionException closed) {
                // stopping anyway
            }
        }
    }

    /** Whether the last heartbeat left this broker fenced (true until the first unfencing heartbeat). */
    public boolean isFenced() {
        return fenced;
    }

    /** The epoch of the current registration, or -1 while unregistered. */
    public long brokerEpoch() {
        return brokerEpoch;
    }

    private void tick() {
        try {
            if (brokerEpoch < 0) {
                brokerEpoch = controller.registerBroker(registration.withLogDirs(logDirs.onlineLogDirs())
                                .withPreviousBrokerEpoch(logDirs.previousBrokerEpoch()))
                        .get(ANSWER_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                LOG.info("Registered broker {} with epoch {}", registration.brokerId(), brokerEpoch);
            }
            checkLogDirFailuresAcknowledged();
            long metadataOffset = metadata.image().offset();
            BrokerHeartbeatReply reply = controller.heartbeat(new BrokerHeartbeatRequest(registration.brokerId(),
                    brokerEpoch, metadataOffset, false, false, logDirs.offlineLogDirs()))
                    .get(ANSWER_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            if (fenced && !reply.isFenced()) {
                LOG.info("Broker {} is unfenced", registration.brokerId());
            }
            fenced = reply.isFenced();
            if (fenced && !unfencedOnce) {
                retrySoon(); // not caught up yet: ask again soon rather than a heartbeat interval later
            }
            if (!fenced && !unfencedOnce) {
                unfencedOnce = true;
                runFirstUnfenced(metadataOffset);
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ControllerException ce && ce.error() == Errors.CLUSTER_AUTHORIZATION_FAILED) {
                // The control plane refuses this node's certificate: asked again at the next tick, not soon, and
                // logged once until the answer changes.
                if (!ce.getMessage().equals(lastRefusal)) {
                    lastRefusal = ce.getMessage();
                    LOG.warn("Broker {} is refused by the controllers: {}", registration.brokerId(), lastRefusal);
                }
            } else if (e.getCause() instanceof ControllerException ce) {
                if (ce.error() == Errors.STALE_BROKER_EPOCH || ce.error() == Errors.BROKER_ID_NOT_REGISTERED) {
                    brokerEpoch = -1;
                }
                // NOT_CONTROLLER while the quorum elects its leader: retried soon while this broker is not yet
                // serving (a start should not wait a whole heartbeat interval), at the next tick otherwise.
                LOG.debug("Broker heartbeat refused: {}", ce.getMessage());
                if (!unfencedOnce) {
                    retrySoon();
                }
            } else {
                LOG.warn("Broker heartbeat failed: {}", e.getCause().toString());
            }
        } catch (TimeoutException e) {
            LOG.warn("The controller did not answer a broker heartbeat within {} ms", ANSWER_TIMEOUT_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops the broker if a failed log directory is still among its online ones in the committed metadata after
     * {@code log.dir.failure.timeout.ms}: the controller never heard, or could not act.
     */
    private void checkLogDirFailuresAcknowledged() {
        Map<Path, UUID> failed = logDirs.failedLogDirs();
        if (failed.isEmpty()) {
            return;
        }
        BrokerRegistration registered = metadata.image().cluster().broker(registration.brokerId());
        long nowNanos = System.nanoTime();
        for (Map.Entry<Path, UUID> dir : failed.entrySet()) {
            boolean acknowledged = registered != null && registered.epoch() == brokerEpoch
                    && !registered.logDirs().contains(dir.getValue());
            if (acknowledged) {
                unacknowledgedSinceNanos.remove(dir.getValue());
                continue;
            }
            long since = unacknowledgedSinceNanos.computeIfAbsent(dir.getValue(), id -> nowNanos);
            if (TimeUnit.NANOSECONDS.toMillis(nowNanos - since) >= logDirFailureTimeoutMs) {
                stopBroker.accept("Broker " + registration.brokerId() + " could not get the controller to take failed "
                        + "log directory " + dir.getKey() + " offline within log.dir.failure.timeout.ms="
                        + logDirFailureTimeoutMs);
                unacknowledgedSinceNanos.clear();
                return;
            }
        }
    }

    private void runFirstUnfenced(long metadataOffset) {
        try {
            onFirstUnfenced.accept(metadataOffset);
        } catch (RuntimeException e) {
            LOG.error("Broker {}: the work after its first unfencing failed", registration.brokerId(), e);
        }
    }

    /**
     * Controlled shutdown, bounded by {@code controlled.shutdown.timeout.ms}: the periodic heartbeats stop and
     * heartbeats asking to shut down follow each other until the controller answers that this broker's leaderships
     * have moved and it is fenced. A broker that never registered has nothing to hand over.
     *
     * @return whether the controller confirmed the shutdown in time
     */
    public boolean controlledShutdown() {
        if (heartbeats != null) {
            heartbeats.cancel(false);
        }
        try {
            // On the lifecycle thread, after any heartbeat in progress, so the two never interleave.
            return timer.submit(this::shutDownWithController).get(controlledShutdownTimeoutMs + ANSWER_TIMEOUT_MS,
                    TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            LOG.warn("Broker {} controlled shutdown failed: {}", registration.brokerId(), e.toString());
            return false;
        }
    }

    private boolean shutDownWithController() throws InterruptedException {
        if (brokerEpoch < 0) {
            return true;
        }
        if (controlledShutdownTimeoutMs == 0) {
            LOG.info("Broker {} stops without a controlled shutdown (controlled.shutdown.timeout.ms=0)",
                    registration.brokerId());
            return false;
        }
        long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(controlledShutdownTimeoutMs);
        LOG.info("Broker {} asks the controller for a controlled shutdown", registration.brokerId());
        while (System.nanoTime() - deadlineNanos < 0) {
            long remainingMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
            try {
                BrokerHeartbeatReply reply = controller.heartbeat(new BrokerHeartbeatRequest(registration.brokerId(),
                        brokerEpoch, metadata.image().offset(), false, true))
                        .get(Math.min(remainingMs, ANSWER_TIMEOUT_MS), TimeUnit.MILLISECONDS);
                fenced = reply.isFenced();
                if (reply.shouldShutDown()) {
                    LOG.info("Broker {} completed its controlled shutdown", registration.brokerId());
                    return true;
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof ControllerException ce && (ce.error() == Errors.STALE_BROKER_EPOCH
                        || ce.error() == Errors.BROKER_ID_NOT_REGISTERED)) {
                    return true; // the controller no longer counts this incarnation: nothing to hand over
                }
                LOG.debug("Controlled shutdown heartbeat failed: {}", e.getCause().toString());
            } catch (TimeoutException e) {
                // asked again below while time remains
            }
            Thread.sleep(CONTROLLED_SHUTDOWN_POLL_MS);
        }
        LOG.warn("Broker {} stops without a confirmed controlled shutdown: no answer within {} ms",
                registration.brokerId(), controlledShutdownTimeoutMs);
        return false;
    }

    @Override
    public void close() {
        ExecutorShutdown.now(timer, Duration.ofMillis(ANSWER_TIMEOUT_MS));
    }
}
