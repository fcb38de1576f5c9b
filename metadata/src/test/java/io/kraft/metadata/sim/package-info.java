/**
 * A seeded simulation of the metadata control plane: real {@link io.kraft.metadata.controller.QuorumController}s
 * on deterministic event loops and one simulated clock, over a model of the Raft quorum behind
 * {@link io.kraft.raft.RaftClient} ({@link io.kraft.metadata.sim.SimRaft}: elections, epoch-fenced appends, lost
 * uncommitted tails, leader-ready, commits split inside batches, snapshots and their transfer), with simulated
 * brokers (register, heartbeat, AlterPartition, producer ids; paused, stopped, restarted as new incarnations, shut
 * down in a controlled way) and an admin (topics, partitions, configs). One {@link io.kraft.metadata.sim.SimScheduler}
 * orders every event and draws every random choice, so a seed replays exactly.
 *
 * <p>Invariants are small named classes checked after every event: partition leaders in their ISR or offline,
 * broker epochs that only grow, one leader per partition leader epoch, acknowledged writes in the committed log,
 * identical images at identical offsets, stored state equal to the image, one active controller per epoch,
 * publishing in log order, leaders usable between batches, and no faults. The committed log itself, replayed once
 * by {@link io.kraft.metadata.sim.CommittedLog}, is the oracle.
 *
 * <p>{@link io.kraft.metadata.sim.RandomizedControllerSimulationTest} runs random faults, then heals and demands
 * progress; {@link io.kraft.metadata.sim.ControllerSimulationTest} holds named scenarios. Replay a failing seed with
 * {@code -Dkraft.seed=N}, run more with {@code -Dkraft.seeds=N -Dkraft.firstSeed=M}, and see more of the event trace
 * in a failure with {@code -Dkraft.trace=N}.
 */
package io.kraft.metadata.sim;
