package io.kraft.metadata.controller;

import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.loop.EventLoop;
import io.kraft.metadata.loop.Time;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active controller's work that comes due by time rather than by request: fencing brokers whose sessions ran out,
 * transaction deadlines, and moving leadership back to preferred replicas. Used on the controller's loop only; every
 * timer does nothing while no managers are active.
 */
final class ActiveControllerTimers {
    /** The controller's own logger, so these lines stay where operators route the controller's (controller.log). */
    private static final Logger LOG = LoggerFactory.getLogger(QuorumController.class);

    private final int nodeId;
    private final Time time;
    private final LeaderBalanceSettings leaderBalance;
    /** The active managers, or null when this member is not the active controller. */
    private final Supplier<ControlManagers> active;
    /** Appends a result's records (name, result); nobody waits for the answer. */
    private final BiConsumer<String, ControllerResult<?>> write;
    private final DeadlineTimer fencingTimer;
    private final DeadlineTimer transactionTimer;
    private final DeadlineTimer leaderBalanceTimer;

    /**
     * @param run runs a named event on the loop now, unless the controller has stopped
     */
    ActiveControllerTimers(int nodeId, EventLoop loop, Time time, LeaderBalanceSettings leaderBalance,
                           Supplier<ControlManagers> active, BiConsumer<String, ControllerResult<?>> write,
                           BiConsumer<String, Runnable> run) {
        this.nodeId = nodeId;
        this.time = time;
        this.leaderBalance = leaderBalance;
        this.active = active;
        this.write = write;
        this.fencingTimer = new DeadlineTimer(loop, "fence stale brokers",
                () -> run.accept("fence stale brokers", this::fenceStaleBrokers));
        this.transactionTimer = new DeadlineTimer(loop, "transaction deadlines",
                () -> run.accept("expire transactions", this::expireTransactions));
        this.leaderBalanceTimer = new DeadlineTimer(loop, "leader balance check",
                () -> run.accept("leader balance check", this::balanceLeaders));
    }

    /** This member became the active controller: every timer starts from its managers' state. */
    void activate() {
        rescheduleFencing();
        rescheduleTransactions();
        if (leaderBalance.enabled()) {
            leaderBalanceTimer.set(time.monotonicMs() + leaderBalance.checkIntervalMs());
        }
    }

    /** This member stopped being the active controller. */
    void cancel() {
        fencingTimer.cancel();
        transactionTimer.cancel();
        leaderBalanceTimer.cancel();
    }

    /** Brokers' sessions changed (a heartbeat, a registration, a write): the next session to run out decides. */
    void rescheduleFencing() {
        ControlManagers managers = active.get();
        if (managers == null) {
            fencingTimer.cancel();
        } else {
            fencingTimer.set(managers.nextFencingDeadlineMs(time.monotonicMs()));
        }
    }

    /** Fences the brokers due now in this event, rather than at the fencing timer's turn on the loop. */
    void fenceNow() {
        fenceStaleBrokers();
    }

    /** Transactions changed: the next transaction deadline decides. */
    void rescheduleTransactions() {
        ControlManagers managers = active.get();
        if (managers == null) {
            transactionTimer.cancel();
            return;
        }
        // Transaction deadlines are wall-clock times (they are in the records); the loop's timers are monotonic.
        long deadlineMs = managers.transactions().nextDeadlineMs();
        transactionTimer.set(deadlineMs, time.monotonicMs() + Math.max(0, deadlineMs - time.wallClockMs()));
    }

    private void fenceStaleBrokers() {
        ControlManagers managers = active.get();
        if (managers == null) {
            return;
        }
        ControllerResult<List<Integer>> result = managers.fenceStaleBrokers(time.monotonicMs());
        if (!result.records().isEmpty()) {
            LOG.info("Controller {} fences stale brokers {}", nodeId, result.response());
            write.accept("fenceStaleBrokers", result);
        }
        rescheduleFencing();
    }

    private void expireTransactions() {
        ControlManagers managers = active.get();
        if (managers == null) {
            return;
        }
        ControllerResult<List<String>> result = managers.transactions().expire(time.wallClockMs());
        if (!result.records().isEmpty()) {
            LOG.info("Controller {} aborts, completes or expires transactional ids {}", nodeId, result.response());
            write.accept("expireTransactions", result);
        }
        rescheduleTransactions();
    }

    /** The periodic move of leadership back to preferred replicas, while this member is active. */
    private void balanceLeaders() {
        ControlManagers managers = active.get();
        if (managers == null) {
            return;
        }
        ControllerResult<List<TopicIdPartition>> result = managers.balanceLeaders(leaderBalance.imbalancePerBrokerPercent());
        leaderBalanceTimer.set(time.monotonicMs() + leaderBalance.checkIntervalMs());
        if (!result.records().isEmpty()) {
            LOG.info("Controller {} moves the leadership of {} partitions back to their preferred replicas", nodeId,
                    result.response().size());
            write.accept("balanceLeaders", result);
        }
    }
}
